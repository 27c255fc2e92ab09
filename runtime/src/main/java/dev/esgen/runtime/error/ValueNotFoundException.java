package dev.esgen.runtime.error;

/**
 * No aggregate holds the value a {@code loadByX} lookup asked for. The message names the aggregate type
 * and the column but not the value, which may be personal data: {@link #value()} has it.
 *
 * <pre>{@code
 * try {
 *   BankAccount account = accounts.loadByEmail("ann@example.com");
 * } catch (ValueNotFoundException e) {
 *   // e.getMessage(): "no bank-account holds the email looked for"
 * }
 * }</pre>
 */
public class ValueNotFoundException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String column;
  private final String value;

  /**
   * @param aggregateName the stored name of the aggregate type
   * @param column the column looked up
   * @param value the value looked for (not put in the message)
   */
  public ValueNotFoundException(String aggregateName, String column, String value) {
    super("no " + aggregateName + " holds the " + column + " looked for");
    this.aggregateName = aggregateName;
    this.column = column;
    this.value = value;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The column's name, as {@code @Indexed} or {@code @Unique} gives it. */
  public String column() {
    return column;
  }

  /** The value looked for, in its stored string form. */
  public String value() {
    return value;
  }
}
