package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.internal.storage.StreamPosition;
import java.util.Objects;

/**
 * What the in-memory store remembers of a stream between loading it and appending to it, as DynamoDB's
 * layouts do in theirs: where its last snapshot was taken and how many older ones the journal layout would
 * keep, and, for the tip layout, how many events and bytes its tip item would hold. The append decides
 * snapshots and checks DynamoDB's limits from it before it touches the stored data.
 *
 * <pre>{@code
 * MemoryPosition position = (MemoryPosition) loaded.position();
 * boolean snapshotDue = loaded.seqNr() + 1 - position.snapshotSeqNr() >= policy.every();
 * }</pre>
 *
 * @param layout the layout whose rules the stream follows
 * @param snapshotSeqNr the seq_nr of the stream's latest snapshot, 0 without one
 * @param retainedSnapshots how many older snapshots the journal layout keeps beside it
 * @param tipEvents how many events the tip item holds
 * @param tipEventBytes the size of those events as elements of the tip's event list
 * @param tipTypeBytes the size of their type names as elements of the tip's type list
 */
record MemoryPosition(LayoutKind layout, long snapshotSeqNr, int retainedSnapshots, int tipEvents,
    long tipEventBytes, long tipTypeBytes) implements StreamPosition {

  MemoryPosition {
    Objects.requireNonNull(layout, "layout");
  }

  /** A stream that does not exist yet. */
  static MemoryPosition initial(LayoutKind layout) {
    return new MemoryPosition(layout, 0, 0, 0, 0, 0);
  }
}
