package dev.esgen.runtime.error;

/**
 * No stream is stored under the id an operation needed.
 *
 * <pre>{@code
 * try {
 *   BankAccount account = accounts.load(id);
 * } catch (AggregateNotFoundException e) {
 *   // e.getMessage(): "bank-account 5f0c... not found"
 * }
 * }</pre>
 */
public class AggregateNotFoundException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;

  /**
   * @param aggregateName the stored name of the aggregate type
   * @param aggregateId the id string looked for
   */
  public AggregateNotFoundException(String aggregateName, String aggregateId) {
    super(aggregateName + " " + aggregateId + " not found");
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }
}
