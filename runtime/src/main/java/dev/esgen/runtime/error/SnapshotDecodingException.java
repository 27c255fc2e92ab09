package dev.esgen.runtime.error;

/**
 * A stored snapshot could not be read back into the aggregate's state, typically because the aggregate
 * class changed incompatibly.
 *
 * <pre>{@code
 * try {
 *   accounts.load(id);
 * } catch (SnapshotDecodingException e) {
 *   // "cannot decode snapshot of bank-account 5f0c... taken at seq_nr 100: ..."
 * }
 * }</pre>
 */
public class SnapshotDecodingException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final long seqNr;

  public SnapshotDecodingException(String aggregateName, String aggregateId, long seqNr, Throwable cause) {
    super("cannot decode snapshot of " + aggregateName + " " + aggregateId + " taken at seq_nr " + seqNr + ": "
        + cause.getMessage(), cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.seqNr = seqNr;
  }

  public String aggregateName() {
    return aggregateName;
  }

  public String aggregateId() {
    return aggregateId;
  }

  /** The seq_nr the snapshot was taken at. */
  public long seqNr() {
    return seqNr;
  }
}
