package dev.esgen.runtime.error;

/**
 * A stream's snapshot was written by code with another state shape or other handlers, and its state
 * cannot be rebuilt because events it would be folded from are no longer stored.
 *
 * <p>esgen never uses a snapshot whose fingerprint differs from the current code's: it folds the stream
 * from its first event instead. esgen itself never deletes events, so this means they were removed from
 * outside (a TTL on the journal or tip table, items deleted by hand, a partial restore). The stale state
 * is not returned: restore the events, or, if the old state is right for the new code, write the stream
 * anew. Neither the message nor the cause quotes stored data.
 *
 * <pre>{@code
 * try {
 *   accounts.load(id);
 * } catch (StaleSnapshotException e) {
 *   // "the snapshot of bank-account 5f0c... at seq_nr 200 was written by other code and cannot be
 *   //  rebuilt: bank-account 5f0c... is corrupt: expected event 1 in the journal, found 101"
 *   log.error("restore the events of {} {}", e.aggregateName(), e.aggregateId(), e);
 * }
 * }</pre>
 */
public class StaleSnapshotException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final long snapshotSeqNr;

  /**
   * @param snapshotSeqNr the seq_nr the ignored snapshot was taken at
   * @param cause what the rebuild found missing
   */
  public StaleSnapshotException(String aggregateName, String aggregateId, long snapshotSeqNr, CorruptStreamException cause) {
    super("the snapshot of " + aggregateName + " " + aggregateId + " at seq_nr " + snapshotSeqNr
        + " was written by other code and cannot be rebuilt: " + cause.getMessage(), cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.snapshotSeqNr = snapshotSeqNr;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The seq_nr the stale snapshot was taken at. */
  public long snapshotSeqNr() {
    return snapshotSeqNr;
  }
}
