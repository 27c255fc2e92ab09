package dev.esgen.runtime.internal.journal;

import dev.esgen.runtime.aggregate.SnapshotPolicy;

/**
 * When an append to the journal layout writes a snapshot into the head row: at creation, when the head
 * row's snapshot was written by other code (stale), while it holds none (the one due did not fit, or was
 * dropped), and every {@link SnapshotPolicy#every()} events after the last one. The DynamoDB layout and the
 * test kit's in-memory store decide by this one rule.
 *
 * <pre>{@code
 * JournalPosition position = (JournalPosition) loaded.position();
 * boolean due = SnapshotDue.at(false, position.snapshotStale(), position.snapshotSeqNr(), loaded.seqNr() + 1,
 *     definition.snapshotPolicy());
 * }</pre>
 */
public final class SnapshotDue {

  private SnapshotDue() {}

  /**
   * Whether the append ending at {@code lastSeqNr} writes a snapshot.
   *
   * @param creating whether the append creates the stream
   * @param stale whether the head row's snapshot was written by other code and ignored
   * @param snapshotSeqNr the seq_nr of the head row's snapshot, 0 when it holds none
   * @param lastSeqNr the seq_nr of the append's last event
   * @param policy the aggregate's snapshot policy
   */
  public static boolean at(boolean creating, boolean stale, long snapshotSeqNr, long lastSeqNr,
      SnapshotPolicy policy) {
    return creating || stale || snapshotSeqNr == 0 || lastSeqNr - snapshotSeqNr >= policy.every();
  }
}
