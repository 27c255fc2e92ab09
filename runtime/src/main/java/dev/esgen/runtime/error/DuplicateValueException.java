package dev.esgen.runtime.error;

/**
 * A write would give a {@code @Unique} column a value another aggregate of the same type already holds.
 *
 * <pre>{@code
 * try {
 *   accounts.create(new AccountOpened(id, "Ann", "ann@example.com", now));
 * } catch (DuplicateValueException e) {
 *   // "bank-account email 'ann@example.com' is already taken"
 *   return conflict(e.column() + " already in use");
 * }
 * }</pre>
 */
public class DuplicateValueException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String column;
  private final String value;

  public DuplicateValueException(String aggregateName, String column, String value) {
    super(aggregateName + " " + column + " '" + value + "' is already taken");
    this.aggregateName = aggregateName;
    this.column = column;
    this.value = value;
  }

  public String aggregateName() {
    return aggregateName;
  }

  public String column() {
    return column;
  }

  public String value() {
    return value;
  }
}
