package dev.esgen.runtime.internal.tip;

import static dev.esgen.runtime.internal.tip.TipAttributes.AID;
import static dev.esgen.runtime.internal.tip.TipAttributes.APPENDED;
import static dev.esgen.runtime.internal.tip.TipAttributes.APPEND_ID;
import static dev.esgen.runtime.internal.tip.TipAttributes.CASES;
import static dev.esgen.runtime.internal.tip.TipAttributes.DATA;
import static dev.esgen.runtime.internal.tip.TipAttributes.EVENTS;
import static dev.esgen.runtime.internal.tip.TipAttributes.EVENT_VERSION;
import static dev.esgen.runtime.internal.tip.TipAttributes.INDEX;
import static dev.esgen.runtime.internal.tip.TipAttributes.LISTING;
import static dev.esgen.runtime.internal.tip.TipAttributes.METADATA;
import static dev.esgen.runtime.internal.tip.TipAttributes.NEXT;
import static dev.esgen.runtime.internal.tip.TipAttributes.SCHEMA;
import static dev.esgen.runtime.internal.tip.TipAttributes.STREAM;
import static dev.esgen.runtime.internal.tip.TipAttributes.TIMESTAMP;
import static dev.esgen.runtime.internal.tip.TipAttributes.UNFOLD;
import static dev.esgen.runtime.internal.tip.TipAttributes.VERSION;
import static dev.esgen.runtime.internal.tip.TipLoader.index;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.EventEncodingException;
import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.SnapshotEncodingException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.index.IndexChanges;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.AmbiguousWriteException;
import dev.esgen.runtime.internal.retry.RetryBudget;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.AppendTransaction;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.SnapshotFingerprint;
import dev.esgen.runtime.internal.storage.StoredEventDecoder;
import dev.esgen.runtime.internal.storage.StoredOutcome;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Writes one append to a stream of the tip layout: a {@code PutItem} that creates the tip, an
 * {@code UpdateItem} that adds events to it, or a {@code TransactWriteItems} when the append must write
 * more than the tip: when the tip is full (the tip's events are calved into a batch item and the tip
 * starts over with the new events, or with none when those alone pass the thresholds and go into the
 * batch item as well) and whenever a {@code @Unique} value is taken or given up (the
 * reservation items are written with the tip). Every write is conditioned on the version the stream was
 * loaded at, and sizes are checked before anything is sent.
 *
 * <p>Index slot attributes ({@code ix{i}_pk}) are set at creation for every non-null {@code @Indexed}
 * value and afterwards named in the update only when their value changed: an append that leaves them
 * alone causes no write to their global secondary indexes. {@code aid} and the listing key are written
 * at creation only, for the same reason.
 *
 * <p>The first new event carries the append id. When a write's outcome is unknown (its response was
 * lost, it timed out), the appender reads the tip, or the batch the event was calved into, and looks at
 * the event right after the loaded ones: its append id says whether this append was stored. If nothing
 * follows the loaded version yet, the same write is sent again, conditioned as before, so it can be
 * applied at most once.
 *
 * <p>Building the append and judging what came back ({@link #prepare}, {@link #readBackTip},
 * {@link #readBack(GetItemResponse, AppendRequest)}, {@link #inBatch}, {@link #verdict}) send nothing, so
 * the synchronous {@link #append} and {@link AsyncTipLayout} share them; each sends and loops on its own.
 */
final class TipAppender {

  private final StoreConfig config;
  private final OperationRecorder recorder;
  private final UniqueReservations reservations;
  private final CommandRecords commands;

  TipAppender(StoreConfig config, OperationRecorder recorder) {
    this.config = config;
    this.recorder = recorder;
    // Reservations and command records stay in the snapshot table for both layouts: one namespace per
    // aggregate type, so a type's unique values stay protected whichever layout holds it.
    this.reservations = new UniqueReservations(config.snapshotTable());
    this.commands = new CommandRecords(config.snapshotTable());
  }

  /**
   * An append built and checked, ready to send: exactly one of the {@code PutItem} that creates the tip,
   * the {@code UpdateItem} of the tip and the transaction; for a single-item write, the error its failed
   * condition means; and the stream as it is once stored.
   */
  record Prepared<A>(PutItemRequest create, UpdateItemRequest update, AppendTransaction transaction,
      Function<ConditionalCheckFailedException, RuntimeException> conflict, LoadedStream<A> stored,
      Optional<SkippedSnapshot> skipped) {

    /** The stream stored, after telling the listener of a skipped snapshot: what a successful send returns. */
    LoadedStream<A> stored(OperationRecorder recorder) {
      skipped.ifPresent(recorder::snapshotSkipped);
      return stored;
    }
  }

  /** Sends {@code request} through {@code client}; returns the stream once the append is stored. */
  <A, I, E> LoadedStream<A> append(DynamoDbClient client, AppendRequest<A, I, E> request) {
    Prepared<A> prepared = prepare(request);
    if (prepared.transaction() != null) {
      sendTransaction(client, prepared.transaction(), request);
    } else {
      writeSingle(client, request, prepared);
    }
    return prepared.stored(recorder);
  }

  /**
   * Builds {@code request}'s write without sending it.
   *
   * @throws ItemTooLargeException when the tip or a batch would exceed DynamoDB's limit
   * @throws dev.esgen.runtime.error.TransactionTooLargeException when the transaction would
   */
  <A, I, E> Prepared<A> prepare(AppendRequest<A, I, E> request) {
    AggregateDefinition<A, I, E> definition = request.definition();
    TipPolicy policy = definition.tipPolicy();
    String aid = request.aggregateId();
    TipKeys keys = new TipKeys(definition.name());
    String stream = keys.streamName(aid);
    boolean creating = request.current().isEmpty();
    long baseVersion = request.current().map(LoadedStream::version).orElse(0L);
    long baseNext = request.current().map(LoadedStream::seqNr).orElse(0L);
    TipPosition position = request.current()
        .map(current -> tipPosition(current, definition.name()))
        .orElse(new TipPosition(List.of(), List.of()));
    Instant now = config.clock().instant();
    AttributeValue timestamp = AttributeValue.fromS(now.toString());
    IndexChanges changes = IndexChanges.between(
        definition.name(), definition.indexColumns(), request.current().map(LoadedStream::state), request.newState());

    List<AttributeValue> newEvents = new ArrayList<>();
    List<AttributeValue> newCases = new ArrayList<>();
    AttributeValue metadata = request.metadata().isEmpty() ? null : MetadataAttributes.TIP.toAttribute(request.metadata());
    for (E event : request.events()) {
      String type = definition.eventCodec().typeName(event);
      Map<String, AttributeValue> stored = new HashMap<>(Map.of(
          TIMESTAMP, timestamp,
          DATA, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(encodeEvent(definition, aid, type, event)))));
      AttributeValue eventVersion = StoredEventDecoder.versionAttribute(definition.eventCodec().version(event));
      if (eventVersion != null) {
        stored.put(EVENT_VERSION, eventVersion);
      }
      if (newEvents.isEmpty()) {
        stored.put(APPEND_ID, AttributeValue.fromS(request.appendId()));
      }
      if (!request.metadata().isEmpty()) {
        stored.put(METADATA, metadata);
      }
      newEvents.add(AttributeValue.fromM(stored));
      newCases.add(AttributeValue.fromS(type));
    }
    long next = baseNext + newEvents.size();
    long version = baseVersion + 1;

    List<AttributeValue> keptEvents = concat(position.events(), newEvents);
    List<AttributeValue> keptCases = concat(position.cases(), newCases);
    // A calving append moves the events the tip held to a batch item, and with them the new ones when those
    // alone are past the thresholds. Such events would make the tip as large as they are on this append and
    // the next, billed twice over; written straight to the batch, the append costs a journal append (the
    // events, and a tip of a snapshot), and the tip starts the next one empty.
    long first = baseNext - position.events().size();
    List<Map<String, AttributeValue>> writtenThrough = List.of();
    if (!creating && overThreshold(policy, newEvents, newCases)) {
      writtenThrough = writtenThrough(stream, first, baseNext, next, position, keptEvents, keptCases, newEvents, newCases);
    }
    boolean calve = !writtenThrough.isEmpty()
        || !position.events().isEmpty() && overThreshold(policy, keptEvents, keptCases);
    if (!writtenThrough.isEmpty()) {
      keptEvents = List.of();
      keptCases = List.of();
    } else if (calve) {
      keptEvents = newEvents;
      keptCases = newCases;
    }

    Map<String, AttributeValue> tip = new HashMap<>();
    tip.put(STREAM, AttributeValue.fromS(stream));
    tip.put(INDEX, index(TipKeys.TIP_INDEX));
    tip.put(VERSION, number(version));
    tip.put(NEXT, number(next));
    tip.put(APPENDED, number(newEvents.size()));
    tip.put(EVENTS, AttributeValue.fromL(keptEvents));
    tip.put(CASES, AttributeValue.fromL(keptCases));
    tip.put(AID, AttributeValue.fromS(aid));
    tip.put(LISTING, AttributeValue.fromS(keys.listingKey(aid, definition.shards())));
    // Every slot value the new state holds, so the size check sees the whole tip; an update names only
    // the changed ones.
    Map<String, String> values = changes.values();
    // The columns in slot order, counted here rather than through slotted(), which filters a new list per call.
    int slot = 0;
    for (IndexColumn column : definition.indexColumns().columns()) {
      if (column.unique()) {
        continue;
      }
      String value = values.get(column.name());
      if (value != null) {
        tip.put(IndexKeys.slotAttribute(slot),
            AttributeValue.fromS(IndexKeys.valueKey(definition.name(), column.name(), value)));
      }
      slot++;
    }
    boolean snapshot = policy.snapshot();
    if (snapshot) {
      Map<String, AttributeValue> unfold = new HashMap<>(Map.of(
          INDEX, number(next),
          TIMESTAMP, timestamp,
          DATA, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(
              encodeSnapshot(definition, aid, next, request.newState())))));
      AttributeValue fingerprint = SnapshotFingerprint.attribute(definition);
      if (fingerprint != null) {
        unfold.put(SCHEMA, fingerprint);
      }
      tip.put(UNFOLD, AttributeValue.fromM(unfold));
    }
    // Measured once with the snapshot, and again only when something must go: the tip's events are in it too.
    // The last measure is the stored tip's, which its position keeps for a reindex to measure against.
    Map<String, Long> untouched = untouched(position.tipAttributeBytes(), tip, changes);
    Map<String, Long> tipSizes = measure(tip, untouched);
    long tipSize = ItemSize.total(tipSizes);
    Optional<SkippedSnapshot> skipped = Optional.empty();
    if (tipSize > ItemTooLargeException.LIMIT_BYTES && !calve && !position.events().isEmpty()) {
      // Past DynamoDB's item limit with the events it held already, though under the policy's thresholds
      // (which count the events alone): those go to a batch item, before the snapshot is given up.
      calve = true;
      keptEvents = newEvents;
      keptCases = newCases;
      tip.put(EVENTS, AttributeValue.fromL(keptEvents));
      tip.put(CASES, AttributeValue.fromL(keptCases));
      tipSizes = measure(tip, untouched);
      tipSize = ItemSize.total(tipSizes);
    }
    if (snapshot && tipSize > ItemTooLargeException.LIMIT_BYTES) {
      // A snapshot that does not fit must not block the stream: the append is stored without it and the
      // next one tries again. The older snapshot goes too (see tipUpdate), so the tip measured here
      // without one is the tip DynamoDB measures; loads fold the stream from its first event meanwhile.
      tip.remove(UNFOLD);
      snapshot = false;
      skipped = Optional.of(new SkippedSnapshot(definition.name(), aid, next, tipSize, ItemTooLargeException.LIMIT_BYTES));
      tipSizes = measure(tip, untouched);
      tipSize = ItemSize.total(tipSizes);
    }
    if (tipSize > ItemTooLargeException.LIMIT_BYTES) {
      String what = "tip with events " + (next - keptEvents.size() + 1) + " to " + next;
      throw new ItemTooLargeException(definition.name(), aid, what, tipSize);
    }

    boolean reserves = !changes.reservations().isEmpty() || !changes.releases().isEmpty();
    boolean transactional = calve || reserves || request.commandId().isPresent();
    LoadedStream<A> stored = new LoadedStream<>(request.newState(), version, next,
        new TipPosition(keptEvents, keptCases, tipSizes));
    if (creating && !transactional) {
      return new Prepared<>(create(tip), null, null, e -> new AggregateAlreadyExistsException(definition.name(), aid,
          versionIn(e.hasItem() ? e.item() : Map.of())), stored, skipped);
    } else if (!creating && !transactional) {
      return new Prepared<>(null, tipUpdate(tip, baseVersion, true, snapshot, changes), null,
          e -> new VersionConflictException(
              definition.name(), aid, baseVersion, versionIn(e.hasItem() ? e.item() : Map.of()), 1, e), stored, skipped);
    } else {
      AppendTransaction transaction = new AppendTransaction(definition.name(), aid);
      if (calve) {
        List<Map<String, AttributeValue>> batches = !writtenThrough.isEmpty()
            ? writtenThrough
            : List.of(batch(stream, first, baseNext, position.events(), position.cases()));
        for (Map<String, AttributeValue> batch : batches) {
          String label = "batch of events " + (Long.parseLong(batch.get(INDEX).n()) + 1) + " to " + batch.get(NEXT).n();
          transaction.addStreamItem(label, TransactWriteItem.builder()
              .put(Put.builder()
                  .tableName(config.tipTable())
                  .item(batch)
                  .conditionExpression("attribute_not_exists(#p)")
                  .expressionAttributeNames(Map.of("#p", STREAM))
                  .build())
              .build(), ItemSize.of(batch));
        }
      }
      transaction.addVersioned("tip",
          creating ? createAction(tip) : updateAction(tipUpdate(tip, baseVersion, !calve, snapshot, changes)),
          tipSize);
      for (IndexChanges.UniqueChange reservation : changes.reservations()) {
        transaction.addReservation(reservation, reservations.reserve(reservation, aid),
            UniqueReservations.itemSize(reservation, aid));
      }
      for (IndexChanges.UniqueChange release : changes.releases()) {
        transaction.addRelease(release, reservations.release(release, aid));
      }
      if (request.commandId().isPresent()) {
        String command = request.commandId().get();
        transaction.addCommand(command, commands.put(definition.name(), aid, command, request.appendId(), version,
            next, now), CommandRecords.itemSize(definition.name(), aid, command, request.appendId(), version, next, now));
      }
      transaction.checkLimits();
      return new Prepared<>(null, null, transaction, null, stored, skipped);
    }
  }

  private static TipPosition tipPosition(LoadedStream<?> current, String aggregateName) {
    if (current.position() instanceof TipPosition position) {
      return position;
    }
    throw new IllegalArgumentException("aggregate " + aggregateName + ": the tip layout cannot append to a"
        + " stream loaded by another layout (" + current.position().getClass().getName() + ")");
  }

  /**
   * The batch items an append whose new events alone pass the thresholds writes them to, with the events
   * the tip held: one batch of both, or, when that would pass DynamoDB's item limit, the tip's events and
   * the new ones in a batch each, so that whether an event near the limit is stored does not depend on how
   * much the tip holds; none when the new events do not fit a batch item on their own (they stay in the tip).
   */
  private static List<Map<String, AttributeValue>> writtenThrough(String stream, long first, long baseNext, long next,
      TipPosition position, List<AttributeValue> keptEvents, List<AttributeValue> keptCases,
      List<AttributeValue> newEvents, List<AttributeValue> newCases) {
    Map<String, AttributeValue> together = batch(stream, first, next, keptEvents, keptCases);
    if (ItemSize.of(together) <= ItemTooLargeException.LIMIT_BYTES) {
      return List.of(together);
    }
    Map<String, AttributeValue> apart = batch(stream, baseNext, next, newEvents, newCases);
    if (position.events().isEmpty() || ItemSize.of(apart) > ItemTooLargeException.LIMIT_BYTES) {
      return List.of();
    }
    return List.of(batch(stream, first, baseNext, position.events(), position.cases()), apart);
  }

  /** The batch item of a stream's events {@code first + 1} to {@code next}, calved from its tip. */
  private static Map<String, AttributeValue> batch(String stream, long first, long next, List<AttributeValue> events,
      List<AttributeValue> cases) {
    return Map.of(
        STREAM, AttributeValue.fromS(stream),
        INDEX, index(first),
        NEXT, number(next),
        EVENTS, AttributeValue.fromL(events),
        CASES, AttributeValue.fromL(cases));
  }

  private static boolean overThreshold(TipPolicy policy, List<AttributeValue> events, List<AttributeValue> cases) {
    if (policy.maxEvents() > 0 && events.size() > policy.maxEvents()) {
      return true;
    }
    return ItemSize.ofList(EVENTS, events) + ItemSize.ofList(CASES, cases) > policy.maxBytes();
  }

  /**
   * The attributes of the stored tip (measured when it was loaded) that an update leaves as they are though
   * the new tip does not hold them: the index slots of {@code @Indexed} columns dropped since
   * (docs/index-columns.md), a slot a reordering of columns left without a value before a reindex, or
   * attributes written by other means. DynamoDB counts them in the item's size. The update sets what
   * {@code tip} holds, and removes the older snapshot and the slots whose value went.
   */
  private static Map<String, Long> untouched(Map<String, Long> stored, Map<String, AttributeValue> tip,
      IndexChanges changes) {
    Map<String, Long> untouched = new HashMap<>();
    stored.forEach((name, bytes) -> {
      if (!tip.containsKey(name) && !name.equals(UNFOLD) && !removedSlot(name, changes)) {
        untouched.put(name, bytes);
      }
    });
    return untouched;
  }

  private static boolean removedSlot(String name, IndexChanges changes) {
    for (IndexChanges.SlotChange slot : changes.slots()) {
      if (slot.key().isEmpty() && name.equals(IndexKeys.slotAttribute(slot.slot()))) {
        return true;
      }
    }
    return false;
  }

  /** The size of each attribute the tip will hold: {@code tip}'s, and the stored ones left {@code untouched}. */
  private static Map<String, Long> measure(Map<String, AttributeValue> tip, Map<String, Long> untouched) {
    Map<String, Long> sizes = ItemSize.ofEach(tip);
    if (untouched.isEmpty()) {
      return sizes;
    }
    Map<String, Long> all = new HashMap<>(sizes);
    all.putAll(untouched);
    return all;
  }

  /**
   * The update that turns the stored tip into {@code tip}: appending its new events to the stored lists,
   * or, after calving, replacing them, writing the new snapshot or removing the older one, and setting or
   * removing the index slots whose value changed. Conditioned on the version the stream was loaded at.
   */
  private UpdateItemRequest tipUpdate(Map<String, AttributeValue> tip, long expectedVersion, boolean appendToLists,
      boolean snapshot, IndexChanges changes) {
    Map<String, String> names = new HashMap<>(Map.of(
        "#v", VERSION, "#n", NEXT, "#a", APPENDED, "#e", EVENTS, "#c", CASES));
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":expected", number(expectedVersion));
    values.put(":v", tip.get(VERSION));
    values.put(":n", tip.get(NEXT));
    values.put(":a", tip.get(APPENDED));
    StringBuilder set = new StringBuilder("SET #v = :v, #n = :n, #a = :a");
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
    names.put("#u", UNFOLD);
    if (snapshot) {
      values.put(":u", tip.get(UNFOLD));
      set.append(", #u = :u");
    } else {
      // Without a new snapshot the older one goes: left from before the aggregate became events-only it
      // would go stale, and beside a newer one skipped for its size it would take the room the events
      // need, in an item esgen could not measure before sending without knowing the older one's size.
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

  private PutItemRequest create(Map<String, AttributeValue> tip) {
    return PutItemRequest.builder()
        .tableName(config.tipTable())
        .item(tip)
        .conditionExpression("attribute_not_exists(#p)")
        .expressionAttributeNames(Map.of("#p", STREAM))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
        .build();
  }

  /**
   * Sends a single-item write until it is known to be stored or not. A write whose outcome is unknown is
   * read back; if nothing followed the loaded version it is sent again within the retry budget. A failed
   * condition after such a resend may be this append's own earlier attempt, so it is read back too.
   */
  private void writeSingle(DynamoDbClient client, AppendRequest<?, ?, ?> request, Prepared<?> prepared) {
    RetryBudget budget = recorder.currentBudget();
    RuntimeException ambiguity = null;
    while (true) {
      try {
        if (prepared.create() != null) {
          client.putItem(prepared.create());
        } else {
          client.updateItem(prepared.update());
        }
        return;
      } catch (ConditionalCheckFailedException e) {
        if (ambiguity == null || readBack(client, request, ambiguity) != StoredOutcome.THIS_APPEND) {
          throw prepared.conflict().apply(e);
        }
        return;
      } catch (AmbiguousWriteException e) {
        ambiguity = e.lastFailure();
        // A failed attempt however reading back settles it: counted and reported to the listener before
        // the read-back, as a transaction's lost response is before its resend.
        boolean again = budget.retry(FailureKind.OUTCOME_UNKNOWN, ambiguity);
        StoredOutcome outcome = readBack(client, request, ambiguity);
        if (outcome == StoredOutcome.THIS_APPEND) {
          return;
        }
        if (outcome == StoredOutcome.ANOTHER_APPEND) {
          throw StoredOutcome.lostTo(request, ambiguity);
        }
        if (!again) {
          throw StoredOutcome.unknown(request, ambiguity);
        }
      } catch (StoreUnavailableException e) {
        if (ambiguity == null) {
          throw e;
        }
        if (readBack(client, request, ambiguity) != StoredOutcome.THIS_APPEND) {
          throw refusedAfterAmbiguity(request, ambiguity, e);
        }
        return;
      } catch (ResourceNotFoundException e) {
        throw missingTip(e);
      }
    }
  }

  /**
   * A single-item write refused until the budget ran out after an attempt of unknown outcome, whose
   * read-back did not find it: that attempt may still be applied after the read-back saw nothing, so
   * "nothing written" would not be a promise esgen can keep.
   */
  static AppendOutcomeUnknownException refusedAfterAmbiguity(
      AppendRequest<?, ?, ?> request, RuntimeException ambiguity, Throwable refusal) {
    AppendOutcomeUnknownException unknown = StoredOutcome.unknown(request, ambiguity);
    unknown.addSuppressed(refusal);
    return unknown;
  }

  /** The error for a single-item write to a missing tip table. */
  MissingTableException missingTip(ResourceNotFoundException e) {
    return new MissingTableException(List.of(config.tipTable()), e);
  }

  /** Sends a transactional append; the retrying client resends it with the same token while in doubt. */
  private void sendTransaction(DynamoDbClient client, AppendTransaction transaction, AppendRequest<?, ?, ?> request) {
    try {
      client.transactWriteItems(b -> b.transactItems(transaction.items()));
    } catch (TransactionCanceledException e) {
      throw transaction.toException(e, request.expectedVersion(), request.creating(), VERSION);
    } catch (AmbiguousWriteException e) {
      RuntimeException notStored =
          transaction.verdict(readBack(client, request, e.lastFailure()), request, e.lastFailure(), VERSION);
      if (notStored != null) {
        throw notStored;
      }
    } catch (ResourceNotFoundException e) {
      throw missingTables(transaction, request, e);
    }
  }

  /** The error for a transactional append to missing tables. */
  MissingTableException missingTables(
      AppendTransaction transaction, AppendRequest<?, ?, ?> request, ResourceNotFoundException e) {
    return new MissingTableException(transaction.changesReservations() || request.commandId().isPresent()
        ? List.of(config.tipTable(), config.snapshotTable())
        : List.of(config.tipTable()), e);
  }

  /**
   * Which append wrote the first event after the request's base: read from the tip, or from the batch
   * it was calved into, with strong consistency. A read that fails leaves the outcome unknown.
   */
  private StoredOutcome readBack(DynamoDbClient client, AppendRequest<?, ?, ?> request, RuntimeException lastFailure) {
    try {
      ReadBack fromTip = readBack(client.getItem(readBackTip(request)), request);
      return fromTip.batch() == null ? fromTip.outcome() : inBatch(client.query(fromTip.batch()), request);
    } catch (RuntimeException unreadable) {
      throw unreadable(request, lastFailure, unreadable);
    }
  }

  /** The error for an append of unknown outcome whose read-back failed too. */
  static AppendOutcomeUnknownException unreadable(
      AppendRequest<?, ?, ?> request, RuntimeException lastFailure, Throwable unreadable) {
    AppendOutcomeUnknownException unknown = StoredOutcome.unknown(request, lastFailure);
    unknown.addSuppressed(unreadable);
    return unknown;
  }

  /** The first read of a read-back: the tip of the request's stream, strongly consistent. */
  GetItemRequest readBackTip(AppendRequest<?, ?, ?> request) {
    return TipLoader.tipRequest(config, streamOf(request), true);
  }

  /**
   * What the tip read by {@link #readBackTip} says: the outcome, or (when the event after the request's
   * base was calved since) the query of the batch holding it, whose answer {@link #inBatch} judges.
   */
  record ReadBack(StoredOutcome outcome, QueryRequest batch) {}

  /** What {@code tipResponse} says about {@code request}; see {@link ReadBack}. */
  ReadBack readBack(GetItemResponse tipResponse, AppendRequest<?, ?, ?> request) {
    long wanted = request.baseSeqNr();
    Map<String, AttributeValue> tip = tipResponse.hasItem() ? tipResponse.item() : Map.of();
    if (tip.isEmpty() || !tip.containsKey(NEXT) || Long.parseLong(tip.get(NEXT).n()) <= wanted) {
      return new ReadBack(StoredOutcome.NOTHING, null);
    }
    long next = Long.parseLong(tip.get(NEXT).n());
    List<AttributeValue> events = tip.get(EVENTS).l();
    long first = next - events.size();
    if (wanted < first) {
      return new ReadBack(null, QueryRequest.builder()
          .tableName(config.tipTable())
          .keyConditionExpression("#p = :p AND #i <= :wanted")
          .expressionAttributeNames(Map.of("#p", STREAM, "#i", INDEX))
          .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(streamOf(request)), ":wanted", index(wanted)))
          .scanIndexForward(false)
          .limit(1)
          .consistentRead(true)
          .build());
    }
    return new ReadBack(outcomeAt(first, events, request), null);
  }

  /** What the batch query of a {@link ReadBack} found about {@code request}. */
  static StoredOutcome inBatch(QueryResponse batches, AppendRequest<?, ?, ?> request) {
    if (batches.items().isEmpty()) {
      return StoredOutcome.ANOTHER_APPEND;
    }
    Map<String, AttributeValue> batch = batches.items().get(0);
    return outcomeAt(Long.parseLong(batch.get(INDEX).n()), batch.get(EVENTS).l(), request);
  }

  /** Which append wrote the event after the request's base, in {@code events}, the first at index {@code first}. */
  private static StoredOutcome outcomeAt(long first, List<AttributeValue> events, AppendRequest<?, ?, ?> request) {
    int offset = (int) (request.baseSeqNr() - first);
    if (offset < 0 || offset >= events.size() || !events.get(offset).hasM()) {
      return StoredOutcome.ANOTHER_APPEND;
    }
    AttributeValue stored = events.get(offset).m().get(APPEND_ID);
    return stored != null && request.appendId().equals(stored.s())
        ? StoredOutcome.THIS_APPEND
        : StoredOutcome.ANOTHER_APPEND;
  }

  private static String streamOf(AppendRequest<?, ?, ?> request) {
    return new TipKeys(request.definition().name()).streamName(request.aggregateId());
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
