package dev.esgen.runtime.internal.journal;

import dev.esgen.runtime.internal.storage.StreamPosition;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The journal layout's bookkeeping for a loaded stream: where the head snapshot was taken, which older
 * snapshot rows are kept and how large each attribute of the head row is, so the next append can decide
 * on a snapshot and on retention, and measure the head row as DynamoDB will after its update, without
 * reading anything more.
 *
 * <pre>{@code
 * JournalPosition position = (JournalPosition) loaded.position();
 * boolean snapshotDue = SnapshotDue.at(false, position.snapshotStale(), position.snapshotSeqNr(), loaded.seqNr() + 1,
 *     policy);
 * }</pre>
 *
 * @param snapshotSeqNr the seq_nr the head row's snapshot was taken at, 0 when it holds none
 * @param retainedSeqNrs seq_nrs of the kept snapshot rows, oldest first, the current snapshot's last
 * @param snapshotStale whether the head row's snapshot was written by other code (another fingerprint)
 *     and ignored: the next append writes a fresh one whatever the snapshot interval says
 * @param headAttributeBytes the size of each attribute of the head row as stored, by name (keys included,
 *     {@code ItemSize.ofEach}): an update leaves the attributes it does not name in place, and DynamoDB
 *     limits the whole row. Kept as given, not copied
 */
public record JournalPosition(long snapshotSeqNr, List<Long> retainedSeqNrs, boolean snapshotStale,
    Map<String, Long> headAttributeBytes) implements StreamPosition {

  public JournalPosition {
    retainedSeqNrs = List.copyOf(retainedSeqNrs);
    // Kept, not copied: every append builds a position from sizes it has just measured, which nothing else
    // holds, and a copy cost a measurable share of an append's CPU.
    headAttributeBytes = Collections.unmodifiableMap(headAttributeBytes);
  }

  /**
   * The position of a stream whose head-row snapshot (if any) was written by the current code, for a
   * caller that does not know the head row's attributes: the next append measures only what it writes.
   */
  public JournalPosition(long snapshotSeqNr, List<Long> retainedSeqNrs) {
    this(snapshotSeqNr, retainedSeqNrs, false, Map.of());
  }
}
