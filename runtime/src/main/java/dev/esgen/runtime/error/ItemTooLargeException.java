package dev.esgen.runtime.error;

/**
 * An item of an append would exceed DynamoDB's item size limit (400 KB = 409,600 bytes, attribute
 * names included). It is raised before anything is sent, so nothing was stored.
 *
 * <pre>{@code
 * try {
 *   documents.append(id, version, new ContentReplaced(hugeText));
 * } catch (ItemTooLargeException e) {
 *   // "event 12 of document 7f3e... is 512,044 bytes, over DynamoDB's item limit of 409,600 bytes
 *   //  (400 KB); nothing was written"
 *   return payloadTooLarge(e.sizeBytes());
 * }
 * }</pre>
 */
public class ItemTooLargeException extends EsgenException {

  private static final long serialVersionUID = 1L;

  /** DynamoDB's maximum item size in bytes. */
  public static final long LIMIT_BYTES = 409_600;

  private final String aggregateName;
  private final String aggregateId;
  private final String item;
  private final long sizeBytes;

  /**
   * @param item which item: {@code "event <seq_nr>"} or {@code "snapshot"} (at some seq_nr)
   * @param sizeBytes the item's size computed with DynamoDB's rules
   */
  public ItemTooLargeException(String aggregateName, String aggregateId, String item, long sizeBytes) {
    super(String.format(
        "%s of %s %s is %,d bytes, over DynamoDB's item limit of %,d bytes (400 KB); nothing was written",
        item, aggregateName, aggregateId, sizeBytes, LIMIT_BYTES));
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.item = item;
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

  /** Which item is too large, e.g. {@code "event 12"} or {@code "snapshot at seq_nr 100"}. */
  public String item() {
    return item;
  }

  /** The size the item would have had, in bytes, measured as DynamoDB measures it. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** DynamoDB's limit, {@value #LIMIT_BYTES} bytes. */
  public long limitBytes() {
    return LIMIT_BYTES;
  }
}
