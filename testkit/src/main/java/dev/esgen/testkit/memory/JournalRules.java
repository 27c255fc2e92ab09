package dev.esgen.testkit.memory;

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
import static dev.esgen.runtime.internal.journal.JournalAttributes.VERSION;
import static dev.esgen.testkit.memory.ItemSizes.attribute;
import static dev.esgen.testkit.memory.ItemSizes.container;
import static dev.esgen.testkit.memory.ItemSizes.number;
import static dev.esgen.testkit.memory.ItemSizes.utf8;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.index.IndexChanges;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.journal.SnapshotDue;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The journal + snapshot layout's rules (see {@code docs/schema.md}): an append is one transaction of a
 * journal item per event, the head row, a kept snapshot row and a delete per displaced one when a snapshot
 * is due and older ones are kept, a reservation or release per changed unique value and the command record.
 * A snapshot is due at creation, every {@code SnapshotPolicy.every()} events after the last one, after a
 * load that found the head row's snapshot stale and while the head row holds none, and is skipped, not
 * refused, when the head row carrying it would pass 400 KB, measured as DynamoDB measures the row the update
 * leaves (the list of kept snapshots included). The older snapshot stays unless it no longer fits beside
 * what the append changes. Streams list by their head row's sort key,
 * {@code {aggregate}-{aid}-00000000000000000000}.
 */
final class JournalRules implements LayoutRules {

  @Override
  public <A, I, E> PlannedAppend plan(AppendRequest<A, I, E> request, String aid, List<KeptEvent> events,
      IndexChanges changes, MemoryPosition position, long untouchedSlotBytes) {
    AggregateDefinition<A, I, E> definition = request.definition();
    String name = definition.name();
    JournalKeys keys = new JournalKeys(name, definition.shards());
    long pkey = attribute(PKEY, utf8(keys.partitionKey(aid)));
    long aidBytes = attribute(AID, utf8(aid));
    long baseSeqNr = request.baseSeqNr();
    long lastSeqNr = baseSeqNr + events.size();
    long version = request.expectedVersion() + 1;
    Instant now = events.get(0).recordedAt();

    long actions = 0;
    long bytes = 0;
    for (int i = 0; i < events.size(); i++) {
      actions++;
      bytes += eventItem(request, aid, i, events.get(i));
    }

    SnapshotPolicy policy = definition.snapshotPolicy();
    // The head row as DynamoDB measures it after the update: what the update writes and what it leaves.
    long head = pkey + attribute(SKEY, utf8(keys.headSortKey(aid))) + aidBytes
        + ItemSizes.indexSlots(definition, request.newState()) + untouchedSlotBytes
        + attribute(LAST_SEQ_NR, number(lastSeqNr)) + attribute(VERSION, number(version));
    String fingerprint = definition.snapshotCodec().fingerprint();
    long schema = fingerprint.isEmpty() ? 0 : attribute(SNAPSHOT_SCHEMA, utf8(fingerprint));
    byte[] snapshot = null;
    MemoryPosition next = null;
    Optional<SkippedSnapshot> skipped = Optional.empty();
    boolean dropOlder = false;
    if (SnapshotDue.at(request.creating(), position.snapshotStale(), position.snapshotSeqNr(), lastSeqNr, policy)) {
      byte[] body = Codecs.encodeSnapshot(definition, aid, lastSeqNr, request.newState());
      List<Long> retained = new ArrayList<>(position.retainedSeqNrs());
      if (policy.keep() > 0) {
        retained.add(lastSeqNr);
      }
      int displaced = 0;
      while (retained.size() > policy.keep()) {
        retained.remove(0);
        displaced++;
      }
      long snapshotBytes = attribute(PAYLOAD, body.length) + schema;
      long withSnapshot = head + attribute(SEQ_NR, number(lastSeqNr)) + snapshotBytes + retainedList(retained);
      if (withSnapshot <= ItemTooLargeException.LIMIT_BYTES) {
        snapshot = body;
        head = withSnapshot;
        if (policy.keep() > 0) {
          long kept = pkey + attribute(SKEY, utf8(keys.sortKey(aid, lastSeqNr))) + aidBytes
              + attribute(PAYLOAD, body.length) + attribute(SEQ_NR, number(lastSeqNr)) + schema;
          actions++;
          bytes += kept;
        }
        actions += displaced;
        next = new MemoryPosition(LayoutKind.JOURNAL, lastSeqNr, snapshotBytes, false, retained, 0, 0, 0);
      } else {
        skipped = Optional.of(
            new SkippedSnapshot(name, aid, lastSeqNr, withSnapshot, ItemTooLargeException.LIMIT_BYTES));
      }
    }
    if (snapshot == null) {
      // The head row keeps the snapshot it has (none, at seq_nr 0, for a stream whose first did not fit),
      // unless that no longer fits beside what the append changes: then it goes too.
      long kept = position.snapshotBytes();
      dropOlder = kept > 0
          && head + attribute(SEQ_NR, number(position.snapshotSeqNr())) + kept
              + retainedList(position.retainedSeqNrs()) > ItemTooLargeException.LIMIT_BYTES;
      long snapshotSeqNr = dropOlder ? 0 : position.snapshotSeqNr();
      head += attribute(SEQ_NR, number(snapshotSeqNr)) + (dropOlder ? 0 : kept)
          + retainedList(position.retainedSeqNrs());
      next = new MemoryPosition(LayoutKind.JOURNAL, snapshotSeqNr, dropOlder ? 0 : kept, position.snapshotStale(),
          position.retainedSeqNrs(), 0, 0, 0);
    }
    if (head > ItemTooLargeException.LIMIT_BYTES) {
      throw new ItemTooLargeException(name, aid, "head row", head);
    }
    // What the head row's update writes counts toward the transaction's bytes: its key and the attributes it
    // sets, a new snapshot included, but not what it leaves in place.
    actions++;
    bytes += pkey + attribute(SKEY, utf8(keys.headSortKey(aid))) + attribute(LAST_SEQ_NR, number(lastSeqNr))
        + attribute(VERSION, number(version)) + (request.creating() ? aidBytes : 0) + slotsWritten(changes)
        + (request.creating() || snapshot != null || dropOlder
            ? attribute(SEQ_NR, number(snapshot != null ? lastSeqNr : 0)) : 0)
        + (snapshot != null ? attribute(PAYLOAD, snapshot.length) + schema : 0)
        + (snapshot != null && policy.keep() > 0 ? retainedList(next.retainedSeqNrs()) : 0);
    for (IndexChanges.UniqueChange reservation : changes.reservations()) {
      actions++;
      bytes += UniqueReservations.itemSize(reservation, aid);
    }
    actions += changes.releases().size();
    if (request.commandId().isPresent()) {
      actions++;
      bytes += CommandRecords.itemSize(name, aid, request.commandId().get(), request.appendId(), version, lastSeqNr,
          now);
    }
    if (actions > TransactionTooLargeException.ACTION_LIMIT || bytes > TransactionTooLargeException.BYTE_LIMIT) {
      throw new TransactionTooLargeException(name, aid, (int) actions, bytes);
    }
    return new PlannedAppend(snapshot, dropOlder, next, skipped);
  }

  @Override
  public boolean indexChangesFirst() {
    return false;
  }

  @Override
  public <A, I, E> void checkEncoded(AppendRequest<A, I, E> request, String aid, int index, KeptEvent event) {
    eventItem(request, aid, index, event);
  }

  /**
   * The size of the journal item of event {@code index} of the append.
   *
   * @throws ItemTooLargeException when it exceeds 400 KB
   */
  private static long eventItem(AppendRequest<?, ?, ?> request, String aid, int index, KeptEvent event) {
    AggregateDefinition<?, ?, ?> definition = request.definition();
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    long seqNr = request.baseSeqNr() + 1 + index;
    long size = attribute(PKEY, utf8(keys.partitionKey(aid))) + attribute(SKEY, utf8(keys.sortKey(aid, seqNr)))
        + attribute(AID, utf8(aid)) + attribute(SEQ_NR, number(seqNr)) + attribute(EVENT_TYPE, utf8(event.type()))
        + attribute(PAYLOAD, event.body().length) + attribute(OCCURRED_AT, utf8(event.recordedAt().toString()))
        + ItemSizes.eventVersion(EVENT_VERSION, event.version())
        + (index == 0 ? attribute(APPEND_ID, utf8(request.appendId())) : 0)
        + ItemSizes.metadata(request, METADATA, MetadataAttributes.JOURNAL);
    if (size > ItemTooLargeException.LIMIT_BYTES) {
      throw new ItemTooLargeException(definition.name(), aid, "event " + seqNr, size);
    }
    return size;
  }

  @Override
  public <A> void checkReindex(AggregateDefinition<A, ?, ?> definition, String aid, LoadedStream<A> loaded,
      long untouchedSlotBytes) {
    MemoryPosition position = (MemoryPosition) loaded.position();
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    long head = attribute(PKEY, utf8(keys.partitionKey(aid))) + attribute(SKEY, utf8(keys.headSortKey(aid)))
        + attribute(AID, utf8(aid)) + ItemSizes.indexSlots(definition, loaded.state()) + untouchedSlotBytes
        + attribute(LAST_SEQ_NR, number(loaded.seqNr())) + attribute(VERSION, number(loaded.version()))
        + attribute(SEQ_NR, number(position.snapshotSeqNr())) + position.snapshotBytes()
        + retainedList(position.retainedSeqNrs());
    if (head > ItemTooLargeException.LIMIT_BYTES) {
      throw new ItemTooLargeException(definition.name(), aid, "index values of version " + loaded.version(), head);
    }
  }

  /** The index slots an append sets (a slot whose value went is removed, which writes no value). */
  private static long slotsWritten(IndexChanges changes) {
    long bytes = 0;
    for (IndexChanges.SlotChange slot : changes.slots()) {
      if (slot.key().isPresent()) {
        bytes += attribute(IndexKeys.slotAttribute(slot.slot()), utf8(slot.key().get()));
      }
    }
    return bytes;
  }

  /** The head row's list of kept snapshots, absent while it is empty. */
  private static long retainedList(List<Long> retained) {
    return retained.isEmpty()
        ? 0
        : attribute(RETAINED_SEQ_NRS, container(retained.size(), retained.stream().mapToLong(ItemSizes::number).sum()));
  }

  @Override
  public String listingKey(String aggregateName, String aid) {
    return new JournalKeys(aggregateName, 1).headSortKey(aid);
  }

  /** {@inheritDoc} On this layout the head row's sort key. */
  @Override
  public String listingAttribute() {
    return IndexKeys.SKEY;
  }
}
