package dev.esgen.runtime.error;

/**
 * An append would need a DynamoDB transaction with more than 100 actions, or more than 4 MB in all.
 * It is raised before anything is sent, so nothing was stored. Split the command into smaller appends
 * (each append holds one action per event plus one to three for the snapshot rows).
 *
 * <pre>{@code
 * try {
 *   ledger.append(id, version, thousandEntries);
 * } catch (TransactionTooLargeException e) {
 *   // "append to ledger 42 needs 1,002 actions of 96,320 bytes in all, over DynamoDB's transaction limit
 *   //  of 100 actions and 4,194,304 bytes; nothing was written: append fewer or smaller events at a time"
 * }
 * }</pre>
 */
public class TransactionTooLargeException extends EsgenException {

  private static final long serialVersionUID = 1L;

  /** DynamoDB's maximum number of actions in one {@code TransactWriteItems}. */
  public static final int ACTION_LIMIT = 100;

  /** DynamoDB's maximum aggregate size of the items in one {@code TransactWriteItems}. */
  public static final long BYTE_LIMIT = 4L * 1024 * 1024;

  private final String aggregateName;
  private final String aggregateId;
  private final int actionCount;
  private final long sizeBytes;

  /**
   * @param aggregateName the stored name of the aggregate type
   * @param aggregateId the stream's id string
   * @param actionCount the actions the transaction would have held
   * @param sizeBytes the bytes it would have written, as DynamoDB counts them
   */
  public TransactionTooLargeException(String aggregateName, String aggregateId, int actionCount, long sizeBytes) {
    super(String.format(
        "append to %s %s needs %,d actions of %,d bytes in all, over DynamoDB's transaction limit of %d actions"
            + " and %,d bytes; nothing was written: append fewer or smaller events at a time",
        aggregateName, aggregateId, actionCount, sizeBytes, ACTION_LIMIT, BYTE_LIMIT));
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.actionCount = actionCount;
    this.sizeBytes = sizeBytes;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The number of write actions the transaction would hold. */
  public int actionCount() {
    return actionCount;
  }

  /** The summed size of the transaction's items. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** DynamoDB's limit on a transaction's actions, {@value #ACTION_LIMIT}. */
  public int actionLimit() {
    return ACTION_LIMIT;
  }
}
