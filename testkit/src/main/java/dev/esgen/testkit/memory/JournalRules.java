package dev.esgen.testkit.memory;

import static dev.esgen.runtime.internal.journal.JournalAttributes.AID;
import static dev.esgen.runtime.internal.journal.JournalAttributes.APPEND_ID;
import static dev.esgen.runtime.internal.journal.JournalAttributes.EVENT_TYPE;
import static dev.esgen.runtime.internal.journal.JournalAttributes.LAST_SEQ_NR;
import static dev.esgen.runtime.internal.journal.JournalAttributes.METADATA;
import static dev.esgen.runtime.internal.journal.JournalAttributes.OCCURRED_AT;
import static dev.esgen.runtime.internal.journal.JournalAttributes.PAYLOAD;
import static dev.esgen.runtime.internal.journal.JournalAttributes.PKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.RETAINED_SEQ_NRS;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SEQ_NR;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SKEY;
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
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The journal + snapshot layout's rules (see {@code docs/schema.md}): an append is one transaction of a
 * journal item per event, the head row, a kept snapshot row and a delete per displaced one when a snapshot
 * is due and older ones are kept, a reservation or release per changed unique value and the command record.
 * A snapshot is due at creation and every {@code SnapshotPolicy.every()} events after the last one, and is
 * skipped, not refused, when the head row carrying it would pass 400 KB by esgen's measure; DynamoDB then
 * measures the whole row the update leaves ({@link ItemValidation}). Streams list by their head row's sort
 * key, {@code {aggregate}-{aid}-00000000000000000000}.
 */
final class JournalRules implements LayoutRules {

  @Override
  public <A, I, E> PlannedAppend plan(AppendRequest<A, I, E> request, String aid, List<StoredEvent> events,
      IndexChanges changes, MemoryPosition position, OperationRecorder recorder) {
    AggregateDefinition<A, I, E> definition = request.definition();
    String name = definition.name();
    JournalKeys keys = new JournalKeys(name, definition.shards());
    long pkey = attribute(PKEY, utf8(keys.partitionKey(aid)));
    long aidBytes = attribute(AID, utf8(aid));
    long metadata = ItemSizes.metadata(request, METADATA, MetadataAttributes.JOURNAL);
    long baseSeqNr = request.baseSeqNr();
    long lastSeqNr = baseSeqNr + events.size();
    long version = request.expectedVersion() + 1;
    Instant now = events.get(0).recordedAt();

    long actions = 0;
    long bytes = 0;
    for (int i = 0; i < events.size(); i++) {
      long seqNr = baseSeqNr + 1 + i;
      StoredEvent event = events.get(i);
      long size = pkey + attribute(SKEY, utf8(keys.sortKey(aid, seqNr))) + aidBytes
          + attribute(SEQ_NR, number(seqNr)) + attribute(EVENT_TYPE, utf8(event.type()))
          + attribute(PAYLOAD, event.body().length) + attribute(OCCURRED_AT, utf8(now.toString()))
          + (i == 0 ? attribute(APPEND_ID, utf8(request.appendId())) : 0) + metadata;
      if (size > ItemTooLargeException.LIMIT_BYTES) {
        throw new ItemTooLargeException(name, aid, "event " + seqNr, size);
      }
      actions++;
      bytes += size;
    }
    actions++; // the head row

    SnapshotPolicy policy = definition.snapshotPolicy();
    long headKey = pkey + attribute(SKEY, utf8(keys.headSortKey(aid))) + aidBytes;
    long slots = ItemSizes.indexSlots(definition, request.newState());
    long counters = attribute(LAST_SEQ_NR, number(lastSeqNr)) + attribute(VERSION, number(version));
    byte[] snapshot = null;
    if (request.creating() || lastSeqNr - position.snapshotSeqNr() >= policy.every()) {
      snapshot = Codecs.encodeSnapshot(definition, aid, lastSeqNr, request.newState());
      // esgen's own measure: the head row without the list of kept snapshots.
      long head = headKey + slots + counters + attribute(PAYLOAD, snapshot.length)
          + attribute(SEQ_NR, number(lastSeqNr));
      if (head > ItemTooLargeException.LIMIT_BYTES) {
        recorder.snapshotSkipped(new SkippedSnapshot(name, aid, lastSeqNr, head, ItemTooLargeException.LIMIT_BYTES));
        snapshot = null;
      }
    }
    MemoryPosition next;
    List<Long> retained = new ArrayList<>(position.retainedSeqNrs());
    long headSnapshot;
    if (snapshot != null) {
      if (policy.keep() > 0) {
        retained.add(lastSeqNr);
      }
      int displaced = 0;
      while (retained.size() > policy.keep()) {
        retained.remove(0);
        displaced++;
      }
      if (policy.keep() > 0) {
        long kept = pkey + attribute(SKEY, utf8(keys.sortKey(aid, lastSeqNr))) + aidBytes
            + attribute(PAYLOAD, snapshot.length) + attribute(SEQ_NR, number(lastSeqNr));
        actions++;
        bytes += kept;
      }
      actions += displaced;
      headSnapshot = attribute(PAYLOAD, snapshot.length) + attribute(SEQ_NR, number(lastSeqNr));
      next = new MemoryPosition(LayoutKind.JOURNAL, lastSeqNr, snapshot.length, retained, 0, 0, 0);
    } else {
      // The head row keeps the snapshot it has (none, at seq_nr 0, for a stream whose first did not fit).
      headSnapshot = (position.snapshotBytes() > 0 ? attribute(PAYLOAD, position.snapshotBytes()) : 0)
          + attribute(SEQ_NR, number(position.snapshotSeqNr()));
      next = position;
    }
    // DynamoDB's measure: the whole head row the update leaves, the list of kept snapshots included.
    long keptList = retained.isEmpty()
        ? 0
        : attribute(RETAINED_SEQ_NRS,
            container(retained.size(), retained.stream().mapToLong(ItemSizes::number).sum()));
    ItemValidation.check(name, aid, snapshot != null ? "snapshot at seq_nr " + lastSeqNr : "head",
        headKey + slots + counters + headSnapshot + keptList, true);
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
    return new PlannedAppend(snapshot, false, next);
  }

  @Override
  public String listingKey(String aggregateName, String aid) {
    return new JournalKeys(aggregateName, 1).headSortKey(aid);
  }
}
