package dev.esgen.runtime.error;

/**
 * The snapshot codec failed to write an aggregate's state; nothing was stored.
 *
 * <pre>{@code
 * try {
 *   accounts.transact(id, account -> account.deposit(500));
 * } catch (SnapshotEncodingException e) {
 *   // "cannot encode snapshot of bank-account 5f0c... at seq_nr 100: ..."
 * }
 * }</pre>
 */
public class SnapshotEncodingException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final long seqNr;

  /** @param cause why encoding failed; it is replaced by its {@link RedactedException} */
  public SnapshotEncodingException(String aggregateName, String aggregateId, long seqNr, Throwable cause) {
    this(aggregateName, aggregateId, seqNr, RedactedException.of(cause));
  }

  private SnapshotEncodingException(String aggregateName, String aggregateId, long seqNr, RedactedException cause) {
    super("cannot encode snapshot of " + aggregateName + " " + aggregateId + " at seq_nr " + seqNr + ": "
        + cause.summary(), cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.seqNr = seqNr;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The seq_nr the snapshot was to be taken at. */
  public long seqNr() {
    return seqNr;
  }
}
