package dev.esgen.runtime.internal.journal;

import dev.esgen.runtime.internal.storage.StreamPosition;
import java.util.List;

/**
 * The journal layout's bookkeeping for a loaded stream: where the head snapshot was taken and which
 * older snapshot rows are kept, so the next append can decide on a snapshot and on retention without
 * reading anything more.
 *
 * <pre>{@code
 * JournalPosition position = (JournalPosition) loaded.position();
 * boolean snapshotDue = loaded.seqNr() + 1 - position.snapshotSeqNr() >= policy.every();
 * }</pre>
 *
 * @param snapshotSeqNr the seq_nr the head row's snapshot was taken at
 * @param retainedSeqNrs seq_nrs of the kept older snapshot rows, oldest first
 * @param snapshotStale whether the head row's snapshot was written by other code (another fingerprint)
 *     and ignored: the next append writes a fresh one whatever the snapshot interval says
 */
public record JournalPosition(long snapshotSeqNr, List<Long> retainedSeqNrs, boolean snapshotStale)
    implements StreamPosition {

  public JournalPosition {
    retainedSeqNrs = List.copyOf(retainedSeqNrs);
  }

  /** The position of a stream whose head-row snapshot (if any) was written by the current code. */
  public JournalPosition(long snapshotSeqNr, List<Long> retainedSeqNrs) {
    this(snapshotSeqNr, retainedSeqNrs, false);
  }
}
