package dev.esgen.runtime.error;

import java.util.Optional;

/**
 * A write would give a {@code @Unique} column a value another aggregate of the same type already holds.
 * Nothing of the write was stored. {@link #value()} is the one the write tried to store (before
 * normalisation); {@link #holderId()} names the aggregate holding it when DynamoDB reported it. The message
 * names the aggregate type, the column and the holder but not the value: values such as e-mail addresses
 * are often personal data, and exception messages end up in logs.
 *
 * <pre>{@code
 * try {
 *   accounts.create(new AccountOpened(id, "Ann", "ann@example.com", now));
 * } catch (DuplicateValueException e) {
 *   // e.getMessage(): "bank-account email: the value is already taken by bank-account 5f0c..."
 *   return conflict(e.column() + " " + e.value() + " is already in use");
 * }
 * }</pre>
 */
public class DuplicateValueException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String column;
  private final String value;
  private final String holderId;

  /**
   * A taken value whose holder is not known.
   *
   * @param aggregateName the stored name of the aggregate type
   * @param column the column's name
   * @param value the value the write tried to store, before normalisation (not put in the message)
   */
  public DuplicateValueException(String aggregateName, String column, String value) {
    this(aggregateName, column, value, Optional.empty());
  }

  /**
   * @param aggregateName the stored name of the aggregate type
   * @param column the column's name
   * @param value the value the write tried to store, before normalisation (not put in the message)
   * @param holderId the id string of the aggregate holding it, when known
   */
  public DuplicateValueException(String aggregateName, String column, String value, Optional<String> holderId) {
    super(aggregateName + " " + column + ": the value is already taken"
        + holderId.map(holder -> " by " + aggregateName + " " + holder).orElse(""));
    this.aggregateName = aggregateName;
    this.column = column;
    this.value = value;
    this.holderId = holderId.orElse(null);
  }

  /** The id string of the aggregate that holds the value, when known. */
  public Optional<String> holderId() {
    return Optional.ofNullable(holderId);
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The column's name, as {@code @Indexed} or {@code @Unique} gives it. */
  public String column() {
    return column;
  }

  /** The value the write tried to store, before normalisation. */
  public String value() {
    return value;
  }
}
