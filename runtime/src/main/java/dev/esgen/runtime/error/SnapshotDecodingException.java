package dev.esgen.runtime.error;

/**
 * A stored snapshot could not be read back into the aggregate's state, typically because the aggregate
 * class changed incompatibly.
 *
 * <p>Neither the message nor the cause chain quotes the stored snapshot, which may hold personal data:
 * the cause is a {@link RedactedException} naming the original exception's class and, for a JSON error,
 * where in the body it occurred, with the original's stack trace.
 *
 * <pre>{@code
 * try {
 *   accounts.load(id);
 * } catch (SnapshotDecodingException e) {
 *   // "cannot decode snapshot of bank-account 5f0c... taken at seq_nr 100: MismatchedInputException
 *   //  at $.balance, line 1, column 42"
 * }
 * }</pre>
 */
public class SnapshotDecodingException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final long seqNr;

  /** @param cause why decoding failed; it is replaced by its {@link RedactedException} */
  public SnapshotDecodingException(String aggregateName, String aggregateId, long seqNr, Throwable cause) {
    this(aggregateName, aggregateId, seqNr, RedactedException.of(cause));
  }

  private SnapshotDecodingException(String aggregateName, String aggregateId, long seqNr, RedactedException cause) {
    super("cannot decode snapshot of " + aggregateName + " " + aggregateId + " taken at seq_nr " + seqNr + ": "
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

  /** The seq_nr the snapshot was taken at. */
  public long seqNr() {
    return seqNr;
  }
}
