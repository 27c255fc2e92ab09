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
