package dev.esgen.runtime.internal.journal;

import static dev.esgen.runtime.internal.journal.JournalAttributes.AID;
import static dev.esgen.runtime.internal.journal.JournalAttributes.APPEND_ID;
import static dev.esgen.runtime.internal.journal.JournalAttributes.EVENT_TYPE;
import static dev.esgen.runtime.internal.journal.JournalAttributes.EVENT_VERSION;
import static dev.esgen.runtime.internal.journal.JournalAttributes.LAST_SEQ_NR;
import static dev.esgen.runtime.internal.journal.JournalAttributes.METADATA;
import static dev.esgen.runtime.internal.journal.JournalAttributes.OCCURRED_AT;
import static dev.esgen.runtime.internal.journal.JournalAttributes.PAYLOAD;
import static dev.esgen.runtime.internal.journal.JournalAttributes.PKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.RETAINED_SEQ_NRS;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SEQ_NR;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SNAPSHOT_SCHEMA;
import static dev.esgen.runtime.internal.journal.JournalAttributes.TTL;
import static dev.esgen.runtime.internal.journal.JournalAttributes.VERSION;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.EventEncodingException;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.SnapshotEncodingException;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.index.IndexChanges;
import dev.esgen.runtime.internal.item.AttributeUpdate;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.AmbiguousWriteException;
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
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Writes one append as a single {@code TransactWriteItems}: builds every action, checks item and
 * transaction sizes before sending, maps cancellations to esgen's errors, and settles a write whose
 * outcome is unknown by reading back the append id stored with its first event. Building the append and
 * judging what came back ({@link #prepare}, {@link #readBack}, {@link #outcome}, {@link #verdict}) send
 * nothing, so the synchronous {@link #append} and the asynchronous layout share them.
 */
final class JournalAppender {

  private final StoreConfig config;
  private final OperationRecorder recorder;
  private final UniqueReservations reservations;
  private final CommandRecords commands;

  JournalAppender(StoreConfig config, OperationRecorder recorder) {
    this.config = config;
    this.recorder = recorder;
    this.reservations = new UniqueReservations(config.snapshotTable());
    this.commands = new CommandRecords(config.snapshotTable());
  }

  /**
   * An append built and checked, ready to send: its transaction, the stream as it is once stored, and the
   * due snapshot left out for its size, if one was, which the listener hears of once the append is stored.
   */
  record Prepared<A>(AppendTransaction transaction, LoadedStream<A> stored, Optional<SkippedSnapshot> skipped) {

    /** The stream stored, after telling the listener of a skipped snapshot: what a successful send returns. */
    LoadedStream<A> stored(OperationRecorder recorder) {
      skipped.ifPresent(recorder::snapshotSkipped);
      return stored;
    }
  }

  /** Sends {@code request} through {@code client}; returns the stream once the append is stored. */
  <A, I, E> LoadedStream<A> append(DynamoDbClient client, AppendRequest<A, I, E> request) {
    Prepared<A> prepared = prepare(request);
    send(client, prepared.transaction(), request);
    return prepared.stored(recorder);
  }

  /**
   * Builds {@code request}'s transaction without sending it.
   *
   * @throws ItemTooLargeException when an item would exceed DynamoDB's limit
   * @throws dev.esgen.runtime.error.TransactionTooLargeException when the transaction would
   */
  <A, I, E> Prepared<A> prepare(AppendRequest<A, I, E> request) {
    AggregateDefinition<A, I, E> definition = request.definition();
    String aid = request.aggregateId();
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    long baseVersion = request.current().map(LoadedStream::version).orElse(0L);
    long baseSeqNr = request.current().map(LoadedStream::seqNr).orElse(0L);
    JournalPosition position = request.current()
        .map(current -> journalPosition(current, definition.name()))
        .orElse(new JournalPosition(0, List.of()));
    Instant now = config.clock().instant();
    String pkey = keys.partitionKey(aid);

    AppendTransaction transaction = new AppendTransaction(definition.name(), aid);
    long seqNr = baseSeqNr;
    for (E event : request.events()) {
      seqNr++;
      TransactItem item = journalItem(definition, keys, aid, pkey, seqNr, event, now,
          seqNr == baseSeqNr + 1 ? request.appendId() : null, request.metadata());
      transaction.addStreamItem("event " + seqNr, item.item(), item.sizeBytes());
    }
    long lastSeqNr = seqNr;
    long version = baseVersion + 1;
    boolean creating = request.current().isEmpty();

    SnapshotPolicy policy = definition.snapshotPolicy();
    IndexChanges changes = IndexChanges.between(
        definition.name(), definition.indexColumns(), request.current().map(LoadedStream::state), request.newState());
    Map<String, AttributeValue> key = Map.of(
        PKEY, AttributeValue.fromS(pkey), SKEY, AttributeValue.fromS(keys.headSortKey(aid)));
    // The head row as stored: DynamoDB measures the row an update leaves, and the update leaves in place
    // every attribute it does not name (the snapshot it does not replace, the list of kept snapshots).
    Map<String, Long> stored = new HashMap<>(creating ? Map.of() : position.headAttributeBytes());
    stored.putAll(ItemSize.ofEach(key));
    AttributeUpdate head = new AttributeUpdate();
    head.set(LAST_SEQ_NR, number(lastSeqNr));
    head.set(VERSION, number(version));
    if (creating) {
      head.set(AID, AttributeValue.fromS(aid));
      head.set(SEQ_NR, number(0));
    }
    // Only index attributes whose value changed are named: an attribute an update leaves alone causes no
    // write to the global secondary index over it.
    for (IndexChanges.SlotChange slot : changes.slots()) {
      String attribute = IndexKeys.slotAttribute(slot.slot());
      if (slot.key().isPresent()) {
        head.set(attribute, AttributeValue.fromS(slot.key().get()));
      } else {
        head.remove(attribute);
      }
    }
    JournalPosition next = position;
    String headLabel = "head";
    byte[] snapshot = null;
    Optional<SkippedSnapshot> skipped = Optional.empty();
    List<Long> displaced = new ArrayList<>();
    // A stale snapshot (written by other code) is replaced by the first append after it was ignored, so
    // the rebuild from all events is paid once; a head row without one (skipped at creation, or dropped as
    // it no longer fitted) gets one as soon as it fits, not only when the interval comes round.
    AttributeValue fingerprint = SnapshotFingerprint.attribute(definition);
    if (SnapshotDue.at(creating, position.snapshotStale(), position.snapshotSeqNr(), lastSeqNr, policy)) {
      byte[] encoded = encodeSnapshot(definition, aid, lastSeqNr, request.newState());
      AttributeUpdate withSnapshot = head.copy();
      withSnapshot.set(PAYLOAD, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(encoded)));
      withSnapshot.set(SEQ_NR, number(lastSeqNr));
      if (fingerprint != null) {
        withSnapshot.set(SNAPSHOT_SCHEMA, fingerprint);
      } else if (!creating) {
        // a fingerprint left by other code would make this snapshot look stale
        withSnapshot.remove(SNAPSHOT_SCHEMA);
      }
      List<Long> retained = new ArrayList<>(position.retainedSeqNrs());
      if (policy.keep() > 0) {
        retained.add(lastSeqNr);
      }
      List<Long> beyondKeep = new ArrayList<>();
      while (retained.size() > policy.keep()) {
        beyondKeep.add(retained.remove(0));
      }
      if (policy.keep() > 0) {
        withSnapshot.set(RETAINED_SEQ_NRS,
            AttributeValue.fromL(retained.stream().map(JournalAppender::number).toList()));
      } else if (!position.retainedSeqNrs().isEmpty()) {
        // keep was lowered to 0: the rows listed are displaced by this append, so the list must go too,
        // or every later snapshot would displace them again.
        withSnapshot.remove(RETAINED_SEQ_NRS);
      }
      long withSnapshotSize = withSnapshot.sizeAfter(stored);
      if (withSnapshotSize <= ItemTooLargeException.LIMIT_BYTES) {
        head = withSnapshot;
        snapshot = encoded;
        displaced = beyondKeep;
        next = new JournalPosition(lastSeqNr, retained, false, head.sizesAfter(stored));
        headLabel = "snapshot at seq_nr " + lastSeqNr;
      } else {
        // A snapshot that does not fit must not block the stream: the events are stored without it, loads
        // fold them onto the last snapshot that fitted, and the next append tries again.
        skipped = Optional.of(new SkippedSnapshot(definition.name(), aid, lastSeqNr, withSnapshotSize,
            ItemTooLargeException.LIMIT_BYTES));
      }
    }
    if (snapshot == null) {
      boolean dropOlder = stored.containsKey(PAYLOAD) && head.sizeAfter(stored) > ItemTooLargeException.LIMIT_BYTES;
      if (dropOlder) {
        // Not even the older snapshot fits beside what this append changes (index values grew): it goes
        // too, and loads fold the stream from its first event until a snapshot fits again.
        head.remove(PAYLOAD);
        if (stored.containsKey(SNAPSHOT_SCHEMA)) {
          head.remove(SNAPSHOT_SCHEMA);
        }
        head.set(SEQ_NR, number(0));
      }
      next = new JournalPosition(dropOlder ? 0 : position.snapshotSeqNr(), position.retainedSeqNrs(),
          position.snapshotStale(), head.sizesAfter(stored));
    }
    long headSize = head.sizeAfter(stored);
    if (headSize > ItemTooLargeException.LIMIT_BYTES) {
      throw new ItemTooLargeException(definition.name(), aid, "head row", headSize);
    }
    Update headUpdate = creating
        ? head.toUpdate(config.snapshotTable(), key, "attribute_not_exists(#pkey)", Map.of("#pkey", PKEY), Map.of())
        : head.toUpdate(config.snapshotTable(), key, "#expectedVersion = :expected",
            Map.of("#expectedVersion", VERSION), Map.of(":expected", number(baseVersion)));
    // DynamoDB counts what the update writes toward the transaction's 4 MB: its key and the attributes it
    // sets (a due snapshot as much as an event), not the attributes it leaves in place.
    long written = ItemSize.of(key) + head.setSize();
    transaction.addVersioned(headLabel, TransactWriteItem.builder().update(headUpdate).build(), written);
    if (snapshot != null && policy.keep() > 0) {
      Map<String, AttributeValue> older = new HashMap<>(Map.of(
          PKEY, AttributeValue.fromS(pkey),
          SKEY, AttributeValue.fromS(keys.sortKey(aid, lastSeqNr)),
          AID, AttributeValue.fromS(aid),
          PAYLOAD, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(snapshot)),
          SEQ_NR, number(lastSeqNr)));
      if (fingerprint != null) {
        older.put(SNAPSHOT_SCHEMA, fingerprint);
      }
      transaction.add("kept snapshot at seq_nr " + lastSeqNr, TransactWriteItem.builder()
          .put(Put.builder().tableName(config.snapshotTable()).item(older).build()).build(), ItemSize.of(older));
    }
    for (long old : displaced) {
      transaction.add("displaced snapshot at seq_nr " + old, displace(policy, pkey, keys.sortKey(aid, old), now), 0);
    }
    for (IndexChanges.UniqueChange reservation : changes.reservations()) {
      transaction.addReservation(reservation, reservations.reserve(reservation, aid),
          UniqueReservations.itemSize(reservation, aid));
    }
    for (IndexChanges.UniqueChange release : changes.releases()) {
      transaction.addRelease(release, reservations.release(release, aid));
    }
    if (request.commandId().isPresent()) {
      String command = request.commandId().get();
      transaction.addCommand(command,
          commands.put(definition.name(), aid, command, request.appendId(), version, lastSeqNr, now),
          CommandRecords.itemSize(definition.name(), aid, command, request.appendId(), version, lastSeqNr, now));
    }

    transaction.checkLimits();
    return new Prepared<>(transaction, new LoadedStream<>(request.newState(), version, lastSeqNr, next), skipped);
  }

  private static JournalPosition journalPosition(LoadedStream<?> current, String aggregateName) {
    if (current.position() instanceof JournalPosition position) {
      return position;
    }
    throw new IllegalArgumentException("aggregate " + aggregateName + ": the journal layout cannot append to a"
        + " stream loaded by another layout (" + current.position().getClass().getName() + ")");
  }

  private <A, I, E> TransactItem journalItem(
      AggregateDefinition<A, I, E> definition,
      JournalKeys keys,
      String aid,
      String pkey,
      long seqNr,
      E event,
      Instant now,
      String appendId,
      EventMetadata metadata) {
    String type = definition.eventCodec().typeName(event);
    byte[] body;
    try {
      body = definition.eventCodec().encode(event);
    } catch (IOException | RuntimeException e) {
      throw new EventEncodingException(definition.name(), aid, type, e);
    }
    Map<String, AttributeValue> item = new HashMap<>(Map.of(
        PKEY, AttributeValue.fromS(pkey),
        SKEY, AttributeValue.fromS(keys.sortKey(aid, seqNr)),
        AID, AttributeValue.fromS(aid),
        SEQ_NR, number(seqNr),
        EVENT_TYPE, AttributeValue.fromS(type),
        PAYLOAD, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(body)),
        OCCURRED_AT, AttributeValue.fromS(now.toString())));
    AttributeValue eventVersion = StoredEventDecoder.versionAttribute(definition.eventCodec().version(event));
    if (eventVersion != null) {
      item.put(EVENT_VERSION, eventVersion);
    }
    if (appendId != null) {
      item.put(APPEND_ID, AttributeValue.fromS(appendId));
    }
    if (!metadata.isEmpty()) {
      item.put(METADATA, MetadataAttributes.JOURNAL.toAttribute(metadata));
    }
    TransactWriteItem put = TransactWriteItem.builder()
        .put(Put.builder()
            .tableName(config.journalTable())
            .item(item)
            .conditionExpression("attribute_not_exists(#pkey)")
            .expressionAttributeNames(Map.of("#pkey", PKEY))
            .build())
        .build();
    return new TransactItem(put, ItemSize.of(item));
  }

  private static <A> byte[] encodeSnapshot(AggregateDefinition<A, ?, ?> definition, String aid, long seqNr, A state) {
    try {
      return definition.snapshotCodec().encode(state);
    } catch (IOException | RuntimeException e) {
      throw new SnapshotEncodingException(definition.name(), aid, seqNr, e);
    }
  }

  /** Deletes an older snapshot row, or in TTL mode marks it for DynamoDB to delete later. */
  private TransactWriteItem displace(SnapshotPolicy policy, String pkey, String skey, Instant now) {
    Map<String, AttributeValue> key = Map.of(PKEY, AttributeValue.fromS(pkey), SKEY, AttributeValue.fromS(skey));
    if (policy.ttl().isEmpty()) {
      return TransactWriteItem.builder()
          .delete(Delete.builder().tableName(config.snapshotTable()).key(key).build())
          .build();
    }
    // Unconditional: should the row be gone already, the stub this creates expires just the same, where
    // a condition would cancel the whole append over a snapshot nobody needs any more.
    long expiresAt = now.plus(policy.ttl().get()).getEpochSecond();
    return TransactWriteItem.builder()
        .update(Update.builder()
            .tableName(config.snapshotTable())
            .key(key)
            .updateExpression("SET #ttl = :ttl")
            .expressionAttributeNames(Map.of("#ttl", TTL))
            .expressionAttributeValues(Map.of(":ttl", number(expiresAt)))
            .build())
        .build();
  }

  /**
   * Sends the transaction. The retrying client resends it with the same token while its outcome is
   * unknown; when it gives up on such a write, the first event's append id tells whether it was stored.
   */
  private void send(DynamoDbClient client, AppendTransaction transaction, AppendRequest<?, ?, ?> request) {
    try {
      client.transactWriteItems(b -> b.transactItems(transaction.items()));
    } catch (TransactionCanceledException e) {
      throw transaction.toException(e, request.expectedVersion(), request.creating(), VERSION);
    } catch (AmbiguousWriteException e) {
      settle(client, e, transaction, request);
    } catch (ResourceNotFoundException e) {
      throw missingTables(e);
    }
  }

  /** Returns when the append is stored; throws what is true otherwise. */
  private void settle(DynamoDbClient client, AmbiguousWriteException ambiguous, AppendTransaction transaction,
      AppendRequest<?, ?, ?> request) {
    StoredOutcome outcome;
    try {
      outcome = outcome(client.getItem(readBack(request)), request);
    } catch (RuntimeException unreadable) {
      throw unreadable(ambiguous, request, unreadable);
    }
    RuntimeException notStored = transaction.verdict(outcome, request, ambiguous.lastFailure(), VERSION);
    if (notStored != null) {
      throw notStored;
    }
  }

  /** The error for the tables of an append that are missing. */
  MissingTableException missingTables(ResourceNotFoundException e) {
    return new MissingTableException(List.of(config.journalTable(), config.snapshotTable()), e);
  }

  /** The error for an append of unknown outcome whose read-back failed too. */
  static AppendOutcomeUnknownException unreadable(
      AmbiguousWriteException ambiguous, AppendRequest<?, ?, ?> request, Throwable unreadable) {
    AppendOutcomeUnknownException unknown = StoredOutcome.unknown(request, ambiguous.lastFailure());
    unknown.addSuppressed(unreadable);
    return unknown;
  }

  /**
   * The read that tells which append, if any, wrote the first event of {@code request}: the append id of
   * that journal item, read with strong consistency.
   */
  GetItemRequest readBack(AppendRequest<?, ?, ?> request) {
    AggregateDefinition<?, ?, ?> definition = request.definition();
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    String aid = request.aggregateId();
    return GetItemRequest.builder()
        .tableName(config.journalTable())
        .key(Map.of(
            PKEY, AttributeValue.fromS(keys.partitionKey(aid)),
            SKEY, AttributeValue.fromS(keys.sortKey(aid, request.baseSeqNr() + 1))))
        .projectionExpression("#a")
        .expressionAttributeNames(Map.of("#a", APPEND_ID))
        .consistentRead(true)
        .build();
  }

  /** What the {@link #readBack} response says about {@code request}. */
  static StoredOutcome outcome(GetItemResponse response, AppendRequest<?, ?, ?> request) {
    if (!response.hasItem() || response.item().isEmpty()) {
      return StoredOutcome.NOTHING;
    }
    AttributeValue stored = response.item().get(APPEND_ID);
    return stored != null && request.appendId().equals(stored.s()) ? StoredOutcome.THIS_APPEND : StoredOutcome.ANOTHER_APPEND;
  }

  private static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  private record TransactItem(TransactWriteItem item, long sizeBytes) {}
}
