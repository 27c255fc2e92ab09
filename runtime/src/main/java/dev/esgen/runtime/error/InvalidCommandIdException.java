package dev.esgen.runtime.error;

/**
 * A command id that esgen cannot store: null, empty, longer than 128 bytes of UTF-8, or not well-formed
 * Unicode (an unpaired surrogate has no UTF-8 form). Thrown before any request.
 *
 * <pre>{@code
 * accounts.transact(id, "", account -> account.deposit(500));
 * // InvalidCommandIdException: "bank-account: a command id must not be empty"
 * }</pre>
 */
public class InvalidCommandIdException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;

  /**
   * @param aggregateName the stored name of the aggregate type
   * @param problem what is wrong with the command id, without quoting it
   */
  public InvalidCommandIdException(String aggregateName, String problem) {
    super(aggregateName + ": " + problem);
    this.aggregateName = aggregateName;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }
}
