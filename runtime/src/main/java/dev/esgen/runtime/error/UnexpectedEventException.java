package dev.esgen.runtime.error;

/**
 * An event arrived where the aggregate has no way to handle it: a stream that starts with an event the
 * creating method does not take, or a later event that only the creating method takes.
 *
 * <p>Thrown by the generated {@code FooRepository.Replay}. It means stored data and code disagree, for example
 * because a stream was written by another version of the aggregate.
 *
 * <pre>{@code
 * try {
 *   BankAccount account = new BankAccountRepository.Replay().create(new MoneyDeposited(500));
 * } catch (UnexpectedEventException e) {
 *   // e.getMessage(): "bank-account cannot handle event money-deposited: only AccountOpened can start
 *   //                  a bank-account stream"
 *   log.error("corrupt stream of {}: {} ({})", e.aggregateName(), e.eventTypeName(), e.reason());
 * }
 * }</pre>
 */
public class UnexpectedEventException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String eventTypeName;
  private final String reason;
  private final String aggregateId;
  private final long seqNr;

  /**
   * @param aggregateName the stored aggregate name, such as {@code "bank-account"}
   * @param eventTypeName the stored name of the event that could not be handled
   * @param reason why it could not be handled
   */
  public UnexpectedEventException(String aggregateName, String eventTypeName, String reason) {
    super(aggregateName + " cannot handle event " + eventTypeName + ": " + reason);
    this.aggregateName = aggregateName;
    this.eventTypeName = eventTypeName;
    this.reason = reason;
    this.aggregateId = null;
    this.seqNr = 0;
  }

  private UnexpectedEventException(UnexpectedEventException unexpected, String aggregateId, long seqNr,
      String storedType) {
    super("cannot fold event " + seqNr + " (stored as '" + storedType + "') of " + unexpected.aggregateName + " "
        + aggregateId + ": " + unexpected.getMessage(), unexpected);
    this.aggregateName = unexpected.aggregateName;
    this.eventTypeName = unexpected.eventTypeName;
    this.reason = unexpected.reason;
    this.aggregateId = aggregateId;
    this.seqNr = seqNr;
  }

  /**
   * This exception, as met folding stored event {@code seqNr} (stored under {@code storedType}) of stream
   * {@code aggregateId}: a load names the stream and the stored event, which the replay does not know.
   */
  public UnexpectedEventException inStream(String aggregateId, long seqNr, String storedType) {
    return this.aggregateId != null ? this : new UnexpectedEventException(this, aggregateId, seqNr, storedType);
  }

  /** The stream's id string where a load met the event; null when the replay was called directly. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The seq_nr of the stored event that stands for the event; 0 when the replay was called directly. */
  public long seqNr() {
    return seqNr;
  }

  /** The stored aggregate name, such as {@code "bank-account"}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stored name of the event that could not be handled. */
  public String eventTypeName() {
    return eventTypeName;
  }

  /** Why the event could not be handled. */
  public String reason() {
    return reason;
  }
}
