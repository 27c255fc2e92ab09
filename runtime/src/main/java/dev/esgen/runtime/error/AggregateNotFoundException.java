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

  public AggregateNotFoundException(String aggregateName, String aggregateId) {
    super(aggregateName + " " + aggregateId + " not found");
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
  }

  public String aggregateName() {
    return aggregateName;
  }

  public String aggregateId() {
    return aggregateId;
  }
}
