package dev.esgen.runtime.tip;

import static dev.esgen.runtime.tip.TipAttributes.AID;
import static dev.esgen.runtime.tip.TipAttributes.APPENDED;
import static dev.esgen.runtime.tip.TipAttributes.CASES;
import static dev.esgen.runtime.tip.TipAttributes.DATA;
import static dev.esgen.runtime.tip.TipAttributes.ETAG;
import static dev.esgen.runtime.tip.TipAttributes.EVENTS;
import static dev.esgen.runtime.tip.TipAttributes.INDEX;
import static dev.esgen.runtime.tip.TipAttributes.LISTING;
import static dev.esgen.runtime.tip.TipAttributes.NEXT;
import static dev.esgen.runtime.tip.TipAttributes.RECENT_ETAGS;
import static dev.esgen.runtime.tip.TipAttributes.RECENT_ETAG_COUNT;
import static dev.esgen.runtime.tip.TipAttributes.STREAM;
import static dev.esgen.runtime.tip.TipAttributes.TIMESTAMP;
import static dev.esgen.runtime.tip.TipAttributes.UNFOLD;
import static dev.esgen.runtime.tip.TipAttributes.VERSION;
import static dev.esgen.runtime.tip.TipLoader.index;
import static dev.esgen.runtime.tip.TipLoader.recentEtags;

import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.ConcurrentModificationException;
import dev.esgen.runtime.error.EventEncodingException;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.SnapshotEncodingException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.index.ConflictResend;
import dev.esgen.runtime.index.IndexChanges;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexKeys;
import dev.esgen.runtime.index.UniqueReservations;
import dev.esgen.runtime.storage.AppendRequest;
import dev.esgen.runtime.storage.CancellationReasons;
import dev.esgen.runtime.storage.ItemSize;
import dev.esgen.runtime.storage.LoadedStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Writes one append to a stream of the tip layout: a {@code PutItem} that creates the tip, an
 * {@code UpdateItem} that adds events to it, or a {@code TransactWriteItems} when the append must write
 * more than the tip: when the tip is full (the tip's events are calved into a batch item and the tip
 * starts over with the new events) and whenever a {@code @Unique} value is taken or given up (the
 * reservation items are written with the tip). Every write is conditioned on the version the stream was
 * loaded at, and sizes are checked before anything is sent.
 *
 * <p>Index slot attributes ({@code ix{i}_pk}) are set at creation for every non-null {@code @Indexed}
 * value and afterwards named in the update only when their value changed: an append that leaves them
 * alone causes no write to their global secondary indexes. {@code aid} and the listing key are written
 * at creation only, for the same reason.
 */
final class TipAppender {

  private final DynamoDbClient client;
  private final StoreConfig config;
  private final UniqueReservations reservations;

  TipAppender(DynamoDbClient client, StoreConfig config) {
    this.client = client;
    this.config = config;
    // Reservations stay in the snapshot table for both layouts: one namespace per aggregate type, so a
    // type's unique values stay protected whichever layout holds it.
    this.reservations = new UniqueReservations(config.snapshotTable());
  }

  <A, I, E> LoadedStream<A> append(AppendRequest<A, I, E> request) {
    AggregateDefinition<A, I, E> definition = request.definition();
    TipPolicy policy = definition.tipPolicy();
    String aid = definition.keys().idString(request.id());
    TipKeys keys = new TipKeys(definition.name());
    String stream = keys.streamName(aid);
    boolean creating = request.current().isEmpty();
    long baseVersion = request.current().map(LoadedStream::version).orElse(0L);
    long baseNext = request.current().map(LoadedStream::seqNr).orElse(0L);
    TipPosition position = request.current()
        .map(current -> tipPosition(current, definition.name()))
        .orElse(new TipPosition(List.of(), List.of(), List.of()));
    Instant now = config.clock().instant();
    IndexChanges changes = IndexChanges.between(
        definition.name(), definition.indexColumns(), request.current().map(LoadedStream::state), request.newState());

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
    // Rewritten whole rather than appended to: the update is conditioned on the loaded version, so the
    // stored history is the loaded one, and rewriting keeps it bounded.
    List<String> etags = concat(position.recentEtags(), List.of(etag));
    etags = etags.subList(Math.max(0, etags.size() - RECENT_ETAG_COUNT), etags.size());

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
    tip.put(RECENT_ETAGS, AttributeValue.fromL(etags.stream().map(AttributeValue::fromS).toList()));
    tip.put(EVENTS, AttributeValue.fromL(keptEvents));
    tip.put(CASES, AttributeValue.fromL(keptCases));
    tip.put(AID, AttributeValue.fromS(aid));
    tip.put(LISTING, AttributeValue.fromS(keys.listingKey(aid, definition.shards())));
    // Every slot value the new state holds, so the size check sees the whole tip; an update names only
    // the changed ones.
    Map<String, String> values = definition.indexColumns().values(request.newState());
    List<IndexColumn> slotted = definition.indexColumns().slotted();
    for (int slot = 0; slot < slotted.size(); slot++) {
      String value = values.get(slotted.get(slot).name());
      if (value != null) {
        tip.put(IndexKeys.slotAttribute(slot),
            AttributeValue.fromS(IndexKeys.valueKey(definition.name(), slotted.get(slot).name(), value)));
      }
    }
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

    boolean reserves = !changes.reservations().isEmpty() || !changes.releases().isEmpty();
    if (creating && !reserves) {
      create(definition.name(), aid, tip, etag);
    } else if (!creating && !calve && !reserves) {
      update(definition.name(), aid, tipUpdate(tip, baseVersion, true, policy, changes), baseVersion, etag);
    } else {
      Transaction transaction = new Transaction(definition.name(), aid);
      if (calve) {
        long first = baseNext - position.events().size();
        Map<String, AttributeValue> batch = Map.of(
            STREAM, AttributeValue.fromS(stream),
            INDEX, index(first),
            NEXT, number(baseNext),
            EVENTS, AttributeValue.fromL(position.events()),
            CASES, AttributeValue.fromL(position.cases()));
        long batchSize = ItemSize.of(batch);
        if (batchSize > ItemTooLargeException.LIMIT_BYTES) {
          throw new ItemTooLargeException(definition.name(), aid,
              "batch of events " + (first + 1) + " to " + baseNext, batchSize);
        }
        transaction.add("batch of events " + (first + 1) + " to " + baseNext, TransactWriteItem.builder()
            .put(Put.builder()
                .tableName(config.tipTable())
                .item(batch)
                .conditionExpression("attribute_not_exists(#p)")
                .expressionAttributeNames(Map.of("#p", STREAM))
                .build())
            .build(), batchSize);
      }
      transaction.addTip(creating ? createAction(tip) : updateAction(tipUpdate(tip, baseVersion, !calve, policy, changes)),
          tipSize);
      for (IndexChanges.UniqueChange reservation : changes.reservations()) {
        transaction.addReservation(reservation, reservations.reserve(reservation, aid),
            UniqueReservations.itemSize(reservation, aid));
      }
      for (IndexChanges.UniqueChange release : changes.releases()) {
        transaction.addRelease(release, reservations.release(release, aid));
      }
      transaction.checkLimits();
      send(transaction, baseVersion, creating);
    }
    return new LoadedStream<>(request.newState(), version, next, new TipPosition(keptEvents, keptCases, etags));
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
   * or, after calving, replacing them, and setting or removing the index slots whose value changed.
   * Conditioned on the version the stream was loaded at.
   */
  private UpdateItemRequest tipUpdate(Map<String, AttributeValue> tip, long expectedVersion, boolean appendToLists,
      TipPolicy policy, IndexChanges changes) {
    Map<String, String> names = new HashMap<>(Map.of(
        "#v", VERSION, "#n", NEXT, "#a", APPENDED, "#et", ETAG, "#eh", RECENT_ETAGS, "#e", EVENTS, "#c", CASES,
        "#u", UNFOLD));
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":expected", number(expectedVersion));
    values.put(":v", tip.get(VERSION));
    values.put(":n", tip.get(NEXT));
    values.put(":a", tip.get(APPENDED));
    values.put(":et", tip.get(ETAG));
    values.put(":eh", tip.get(RECENT_ETAGS));
    StringBuilder set = new StringBuilder("SET #v = :v, #n = :n, #a = :a, #et = :et, #eh = :eh");
    List<String> remove = new ArrayList<>();
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
    if (policy.snapshot()) {
      values.put(":u", tip.get(UNFOLD));
      set.append(", #u = :u");
    } else {
      // A snapshot left from before the aggregate became events-only would go stale: drop it.
      remove.add("#u");
    }
    // Only slots whose value changed are named: an attribute the update leaves alone causes no write to
    // the global secondary index over it.
    for (IndexChanges.SlotChange slot : changes.slots()) {
      String name = "#ix" + slot.slot();
      names.put(name, IndexKeys.slotAttribute(slot.slot()));
      if (slot.key().isPresent()) {
        values.put(":ix" + slot.slot(), AttributeValue.fromS(slot.key().get()));
        set.append(", ").append(name).append(" = :ix").append(slot.slot());
      } else {
        remove.add(name);
      }
    }
    String expression = remove.isEmpty() ? set.toString() : set + " REMOVE " + String.join(", ", remove);
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

  private void create(String aggregateName, String aid, Map<String, AttributeValue> tip, String etag) {
    try {
      client.putItem(b -> b
          .tableName(config.tipTable())
          .item(tip)
          .conditionExpression("attribute_not_exists(#p)")
          .expressionAttributeNames(Map.of("#p", STREAM))
          .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
    } catch (ConditionalCheckFailedException e) {
      Map<String, AttributeValue> stored = e.hasItem() ? e.item() : Map.of();
      if (recentEtags(stored).contains(etag)) {
        // The SDK retried a create whose first attempt was applied but whose response was lost: the tip
        // is the one this create wrote, possibly with other writers' appends after it.
        return;
      }
      throw new AggregateAlreadyExistsException(aggregateName, aid, versionIn(stored));
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.tipTable()), e);
    }
  }

  private void update(String aggregateName, String aid, UpdateItemRequest update, long expectedVersion, String etag) {
    try {
      client.updateItem(update);
    } catch (ConditionalCheckFailedException e) {
      Map<String, AttributeValue> stored = e.hasItem() ? e.item() : Map.of();
      if (recentEtags(stored).contains(etag)) {
        // The SDK retried a request whose first attempt was applied but whose response was lost: the
        // tip already holds this update, possibly with other writers' appends after it.
        return;
      }
      throw new ConcurrentModificationException(aggregateName, aid, expectedVersion, versionIn(stored), 1, e);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.tipTable()), e);
    }
  }

  private TransactWriteItem createAction(Map<String, AttributeValue> tip) {
    return TransactWriteItem.builder()
        .put(Put.builder()
            .tableName(config.tipTable())
            .item(tip)
            .conditionExpression("attribute_not_exists(#p)")
            .expressionAttributeNames(Map.of("#p", STREAM))
            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
            .build())
        .build();
  }

  private static TransactWriteItem updateAction(UpdateItemRequest tip) {
    return TransactWriteItem.builder()
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
  }

  private void send(Transaction transaction, long expectedVersion, boolean creating) {
    ConflictResend.send(client, transaction.items, transaction.changesReservations(),
        e -> new CancellationReasons(transaction.aggregateName, transaction.aid, expectedVersion, creating,
            transaction.labels, transaction.tipIndex, VERSION, transaction.reservations, transaction.releases)
            .toException(e),
        transaction.changesReservations()
            ? List.of(config.tipTable(), config.snapshotTable())
            : List.of(config.tipTable()));
  }

  /** The actions of one transactional append, with a label per action for error messages. */
  private static final class Transaction {
    private final String aggregateName;
    private final String aid;
    private final List<TransactWriteItem> items = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();
    private final Map<Integer, IndexChanges.UniqueChange> reservations = new HashMap<>();
    private final Set<Integer> releases = new HashSet<>();
    private int tipIndex = -1;
    private long sizeBytes;

    Transaction(String aggregateName, String aid) {
      this.aggregateName = aggregateName;
      this.aid = aid;
    }

    /** Adds an action; {@code sizeBytes} is 0 for deletes. Item sizes were checked by the caller. */
    void add(String label, TransactWriteItem item, long sizeBytes) {
      items.add(item);
      labels.add(label);
      this.sizeBytes += sizeBytes;
    }

    void addTip(TransactWriteItem item, long sizeBytes) {
      tipIndex = items.size();
      add("tip", item, sizeBytes);
    }

    void addReservation(IndexChanges.UniqueChange change, TransactWriteItem item, long sizeBytes) {
      reservations.put(items.size(), change);
      add("reservation of " + change.column().name() + " '" + change.value() + "'", item, sizeBytes);
    }

    void addRelease(IndexChanges.UniqueChange change, TransactWriteItem item) {
      releases.add(items.size());
      add("release of " + change.column().name() + " '" + change.value() + "'", item, 0);
    }

    /** Whether the append takes or gives up a unique value, so a reservation item can be contended. */
    boolean changesReservations() {
      return !reservations.isEmpty() || !releases.isEmpty();
    }

    void checkLimits() {
      if (items.size() > TransactionTooLargeException.ACTION_LIMIT
          || sizeBytes > TransactionTooLargeException.BYTE_LIMIT) {
        throw new TransactionTooLargeException(aggregateName, aid, items.size(), sizeBytes);
      }
    }
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
