package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.internal.storage.StreamPosition;
import java.util.List;
import java.util.Objects;

/**
 * What the in-memory store remembers of a stream between loading it and appending to it, as DynamoDB's
 * layouts do in theirs, plus what it needs to know the size of the item that carries the stream's version
 * in DynamoDB (the journal's head row, the tip): its latest snapshot, the older snapshots the journal
 * keeps, and the events the tip holds. The append decides snapshots and checks DynamoDB's limits from it
 * before it touches the stored data.
 *
 * <pre>{@code
 * MemoryPosition position = (MemoryPosition) loaded.position();
 * boolean snapshotDue = SnapshotDue.at(false, position.snapshotStale(), position.snapshotSeqNr(), loaded.seqNr() + 1,
 *     policy);
 * }</pre>
 *
 * @param layout the layout whose rules the stream follows
 * @param snapshotSeqNr the seq_nr of the stream's latest snapshot, 0 without one
 * @param snapshotBytes what that snapshot adds to the versioned item: on the journal its body and
 *     fingerprint attributes, on the tip the whole snapshot attribute; 0 without one
 * @param snapshotStale whether the loading code ignored that snapshot for its fingerprint, so that the
 *     next append writes a fresh one whatever the snapshot interval says
 * @param retainedSeqNrs the seq_nrs of the older snapshots the journal layout keeps, oldest first
 * @param tipEvents how many events the tip item holds
 * @param tipEventBytes the size of those events as elements of the tip's event list
 * @param tipTypeBytes the size of their type names as elements of the tip's type list
 */
record MemoryPosition(LayoutKind layout, long snapshotSeqNr, long snapshotBytes, boolean snapshotStale,
    List<Long> retainedSeqNrs, int tipEvents, long tipEventBytes, long tipTypeBytes) implements StreamPosition {

  MemoryPosition {
    Objects.requireNonNull(layout, "layout");
    retainedSeqNrs = List.copyOf(retainedSeqNrs);
  }

  /** A stream that does not exist yet. */
  static MemoryPosition initial(LayoutKind layout) {
    return new MemoryPosition(layout, 0, 0, false, List.of(), 0, 0, 0);
  }

  /** This position, as loaded by code that found its snapshot stale (or not). */
  MemoryPosition withSnapshotStale(boolean stale) {
    return new MemoryPosition(layout, snapshotSeqNr, snapshotBytes, stale, retainedSeqNrs, tipEvents, tipEventBytes,
        tipTypeBytes);
  }
}
