package dev.esgen.runtime.tip;

import static dev.esgen.runtime.tip.TipAttributes.APPENDED;
import static dev.esgen.runtime.tip.TipAttributes.CASES;
import static dev.esgen.runtime.tip.TipAttributes.DATA;
import static dev.esgen.runtime.tip.TipAttributes.ETAG;
import static dev.esgen.runtime.tip.TipAttributes.EVENTS;
import static dev.esgen.runtime.tip.TipAttributes.INDEX;
import static dev.esgen.runtime.tip.TipAttributes.NEXT;
import static dev.esgen.runtime.tip.TipAttributes.STREAM;
import static dev.esgen.runtime.tip.TipAttributes.TIMESTAMP;
import static dev.esgen.runtime.tip.TipAttributes.UNFOLD;
import static dev.esgen.runtime.tip.TipAttributes.VERSION;
import static dev.esgen.runtime.tip.TipLoader.index;

import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AppendRejectedException;
import dev.esgen.runtime.error.ConcurrentModificationException;
import dev.esgen.runtime.error.EventEncodingException;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.SnapshotEncodingException;
import dev.esgen.runtime.storage.AppendRequest;
import dev.esgen.runtime.storage.ItemSize;
import dev.esgen.runtime.storage.LoadedStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Writes one append to a stream of the tip layout: a {@code PutItem} that creates the tip, an
 * {@code UpdateItem} that adds events to it, or, when the tip is full, a {@code TransactWriteItems} that
 * calves the tip's events into a batch item and starts the tip over with the new events. Every write is
 * conditioned on the version the stream was loaded at, and sizes are checked before anything is sent.
 */
final class TipAppender {

  private static final String CONDITION_FAILED = "ConditionalCheckFailed";
  private static final String TRANSACTION_CONFLICT = "TransactionConflict";

  private final DynamoDbClient client;
  private final StoreConfig config;

  TipAppender(DynamoDbClient client, StoreConfig config) {
    this.client = client;
    this.config = config;
  }

  <A, I, E> LoadedStream<A> append(AppendRequest<A, I, E> request) {
    AggregateDefinition<A, I, E> definition = request.definition();
    TipPolicy policy = definition.tipPolicy();
    String aid = definition.keys().idString(request.id());
    String stream = new TipKeys(definition.name()).streamName(aid);
    boolean creating = request.current().isEmpty();
    long baseVersion = request.current().map(LoadedStream::version).orElse(0L);
    long baseNext = request.current().map(LoadedStream::seqNr).orElse(0L);
    TipPosition position = request.current()
        .map(current -> tipPosition(current, definition.name()))
        .orElse(new TipPosition(List.of(), List.of()));
    Instant now = config.clock().instant();

    List<AttributeValue> newEvents = new ArrayList<>();
    List<AttributeValue> newCases = new ArrayList<>();
    for (E event : request.events()) {
      String type = definition.eventCodec().typeName(event);
      newEvents.add(AttributeValue.fromM(Map.of(
          TIMESTAMP, AttributeValue.fromS(now.toString()),
          DATA, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(encodeEvent(definition, aid, type, event))))));
      newCases.add(AttributeValue.fromS(type));
    }
    long next = baseNext + newEvents.size();
    long version = baseVersion + 1;
    String etag = UUID.randomUUID().toString();

    List<AttributeValue> keptEvents = concat(position.events(), newEvents);
    List<AttributeValue> keptCases = concat(position.cases(), newCases);
    boolean calve = !position.events().isEmpty() && overThreshold(policy, keptEvents, keptCases);
    if (calve) {
      keptEvents = newEvents;
      keptCases = newCases;
    }

    Map<String, AttributeValue> tip = new HashMap<>();
    tip.put(STREAM, AttributeValue.fromS(stream));
    tip.put(INDEX, index(TipKeys.TIP_INDEX));
    tip.put(VERSION, number(version));
    tip.put(NEXT, number(next));
    tip.put(APPENDED, number(newEvents.size()));
    tip.put(ETAG, AttributeValue.fromS(etag));
    tip.put(EVENTS, AttributeValue.fromL(keptEvents));
    tip.put(CASES, AttributeValue.fromL(keptCases));
    if (policy.snapshot()) {
      tip.put(UNFOLD, AttributeValue.fromM(Map.of(
          INDEX, number(next),
          TIMESTAMP, AttributeValue.fromS(now.toString()),
          DATA, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(
              encodeSnapshot(definition, aid, next, request.newState()))))));
    }
    long tipSize = ItemSize.of(tip);
    if (tipSize > ItemTooLargeException.LIMIT_BYTES) {
      String what = "tip with events " + (next - keptEvents.size() + 1) + " to " + next
          + (policy.snapshot() ? " and the snapshot at " + next : "");
      throw new ItemTooLargeException(definition.name(), aid, what, tipSize);
    }

    if (creating) {
      create(definition.name(), aid, tip);
    } else if (calve) {
      long first = baseNext - position.events().size();
      Map<String, AttributeValue> batch = Map.of(
          STREAM, AttributeValue.fromS(stream),
          INDEX, index(first),
          NEXT, number(baseNext),
          EVENTS, AttributeValue.fromL(position.events()),
          CASES, AttributeValue.fromL(position.cases()));
      long batchSize = ItemSize.of(batch);
      if (batchSize > ItemTooLargeException.LIMIT_BYTES) {
        throw new ItemTooLargeException(definition.name(), aid, "batch of events " + (first + 1) + " to " + baseNext,
            batchSize);
      }
      calveAndUpdate(definition.name(), aid, batch, tipUpdate(tip, baseVersion, false, policy), baseVersion);
    } else {
      update(definition.name(), aid, tipUpdate(tip, baseVersion, true, policy), baseVersion, etag);
    }
    return new LoadedStream<>(request.newState(), version, next, new TipPosition(keptEvents, keptCases));
  }

  private static TipPosition tipPosition(LoadedStream<?> current, String aggregateName) {
    if (current.position() instanceof TipPosition position) {
      return position;
    }
    throw new IllegalArgumentException("aggregate " + aggregateName + ": the tip layout cannot append to a"
        + " stream loaded by another layout (" + current.position().getClass().getName() + ")");
  }

  private static boolean overThreshold(TipPolicy policy, List<AttributeValue> events, List<AttributeValue> cases) {
    if (policy.maxEvents() > 0 && events.size() > policy.maxEvents()) {
      return true;
    }
    return ItemSize.of(Map.of(EVENTS, AttributeValue.fromL(events), CASES, AttributeValue.fromL(cases)))
        > policy.maxBytes();
  }

  /**
   * The update that turns the stored tip into {@code tip}: appending its new events to the stored lists,
   * or, after calving, replacing them. Conditioned on the version the stream was loaded at.
   */
  private UpdateItemRequest tipUpdate(
      Map<String, AttributeValue> tip, long expectedVersion, boolean appendToLists, TipPolicy policy) {
    Map<String, String> names = new HashMap<>(Map.of(
        "#v", VERSION, "#n", NEXT, "#a", APPENDED, "#et", ETAG, "#e", EVENTS, "#c", CASES, "#u", UNFOLD));
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":expected", number(expectedVersion));
    values.put(":v", tip.get(VERSION));
    values.put(":n", tip.get(NEXT));
    values.put(":a", tip.get(APPENDED));
    values.put(":et", tip.get(ETAG));
    StringBuilder set = new StringBuilder("SET #v = :v, #n = :n, #a = :a, #et = :et");
    if (appendToLists) {
      int appended = Integer.parseInt(tip.get(APPENDED).n());
      List<AttributeValue> events = tip.get(EVENTS).l();
      List<AttributeValue> cases = tip.get(CASES).l();
      values.put(":e", AttributeValue.fromL(events.subList(events.size() - appended, events.size())));
      values.put(":c", AttributeValue.fromL(cases.subList(cases.size() - appended, cases.size())));
      set.append(", #e = list_append(#e, :e), #c = list_append(#c, :c)");
    } else {
      values.put(":e", tip.get(EVENTS));
      values.put(":c", tip.get(CASES));
      set.append(", #e = :e, #c = :c");
    }
    String expression;
    if (policy.snapshot()) {
      values.put(":u", tip.get(UNFOLD));
      expression = set + ", #u = :u";
    } else {
      // A snapshot left from before the aggregate became events-only would go stale: drop it.
      expression = set + " REMOVE #u";
    }
    return UpdateItemRequest.builder()
        .tableName(config.tipTable())
        .key(Map.of(STREAM, tip.get(STREAM), INDEX, tip.get(INDEX)))
        .updateExpression(expression)
        .conditionExpression("#v = :expected")
        .expressionAttributeNames(names)
        .expressionAttributeValues(values)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
        .build();
  }

  private void create(String aggregateName, String aid, Map<String, AttributeValue> tip) {
    try {
      client.putItem(b -> b
          .tableName(config.tipTable())
          .item(tip)
          .conditionExpression("attribute_not_exists(#p)")
          .expressionAttributeNames(Map.of("#p", STREAM))
          .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
    } catch (ConditionalCheckFailedException e) {
      throw new AggregateAlreadyExistsException(aggregateName, aid, versionIn(e.hasItem() ? e.item() : Map.of()));
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.tipTable()), e);
    }
  }

  private void update(String aggregateName, String aid, UpdateItemRequest update, long expectedVersion, String etag) {
    try {
      client.updateItem(update);
    } catch (ConditionalCheckFailedException e) {
      Map<String, AttributeValue> stored = e.hasItem() ? e.item() : Map.of();
      AttributeValue storedEtag = stored.get(ETAG);
      if (storedEtag != null && etag.equals(storedEtag.s())) {
        // The SDK retried a request whose first attempt was applied but whose response was lost: the
        // tip already holds exactly this update.
        return;
      }
      throw new ConcurrentModificationException(aggregateName, aid, expectedVersion, versionIn(stored), 1, e);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.tipTable()), e);
    }
  }

  private void calveAndUpdate(
      String aggregateName, String aid, Map<String, AttributeValue> batch, UpdateItemRequest tip, long expectedVersion) {
    TransactWriteItem putBatch = TransactWriteItem.builder()
        .put(Put.builder()
            .tableName(config.tipTable())
            .item(batch)
            .conditionExpression("attribute_not_exists(#p)")
            .expressionAttributeNames(Map.of("#p", STREAM))
            .build())
        .build();
    TransactWriteItem updateTip = TransactWriteItem.builder()
        .update(Update.builder()
            .tableName(tip.tableName())
            .key(tip.key())
            .updateExpression(tip.updateExpression())
            .conditionExpression(tip.conditionExpression())
            .expressionAttributeNames(tip.expressionAttributeNames())
            .expressionAttributeValues(tip.expressionAttributeValues())
            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
            .build())
        .build();
    // One token per logical append: the SDK's own retries of this request then cannot apply it twice.
    String token = UUID.randomUUID().toString();
    try {
      client.transactWriteItems(b -> b.transactItems(putBatch, updateTip).clientRequestToken(token));
    } catch (TransactionCanceledException e) {
      throw cancelled(aggregateName, aid, expectedVersion, e);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.tipTable()), e);
    }
  }

  /** Maps a cancelled calving transaction (action 0: the batch, action 1: the tip) to esgen's error. */
  private static RuntimeException cancelled(
      String aggregateName, String aid, long expectedVersion, TransactionCanceledException e) {
    List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
    if (reasons.size() > 1 && CONDITION_FAILED.equals(reasons.get(1).code())) {
      Map<String, AttributeValue> stored = reasons.get(1).hasItem() ? reasons.get(1).item() : Map.of();
      return new ConcurrentModificationException(aggregateName, aid, expectedVersion, versionIn(stored), 1, e);
    }
    // A batch already stored under that index while the tip still matched, or a transaction racing on the
    // same items: another writer is at work on this stream, and a reload sorts it out.
    List<String> described = new ArrayList<>();
    for (int i = 0; i < reasons.size(); i++) {
      String code = reasons.get(i).code();
      if (CONDITION_FAILED.equals(code) || TRANSACTION_CONFLICT.equals(code)) {
        return new ConcurrentModificationException(aggregateName, aid, expectedVersion, OptionalLong.empty(), 1, e);
      }
      if (code != null && !"None".equals(code)) {
        described.add((i == 0 ? "batch" : "tip") + ": " + code
            + (reasons.get(i).message() == null ? "" : " (" + reasons.get(i).message() + ")"));
      }
    }
    if (described.isEmpty()) {
      described.add(String.valueOf(e.getMessage()));
    }
    return new AppendRejectedException(aggregateName, aid, described, e);
  }

  private static OptionalLong versionIn(Map<String, AttributeValue> item) {
    AttributeValue version = item.get(VERSION);
    return version == null || version.n() == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(version.n()));
  }

  private static <E> byte[] encodeEvent(AggregateDefinition<?, ?, E> definition, String aid, String type, E event) {
    try {
      return definition.eventCodec().encode(event);
    } catch (IOException | RuntimeException e) {
      throw new EventEncodingException(definition.name(), aid, type, e);
    }
  }

  private static <A> byte[] encodeSnapshot(AggregateDefinition<A, ?, ?> definition, String aid, long seqNr, A state) {
    try {
      return definition.snapshotCodec().encode(state);
    } catch (IOException | RuntimeException e) {
      throw new SnapshotEncodingException(definition.name(), aid, seqNr, e);
    }
  }

  private static <T> List<T> concat(List<T> first, List<T> second) {
    List<T> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  private static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
