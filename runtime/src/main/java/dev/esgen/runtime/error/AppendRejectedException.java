package dev.esgen.runtime.error;

import java.util.List;

/**
 * DynamoDB cancelled an append's transaction for a reason that retrying cannot help, other than a
 * version conflict, for example a validation error. Nothing of the append was stored. The message lists
 * DynamoDB's cancellation reason for every action of the transaction. (A transaction cancelled only for
 * transaction conflicts or throttling is sent again; when the retry budget runs out on those, the append
 * fails with {@link StoreUnavailableException}.)
 *
 * <pre>{@code
 * try {
 *   accounts.append(id, version, events);
 * } catch (AppendRejectedException e) {
 *   // "append to bank-account 5f0c... rejected by DynamoDB: [event 3: ValidationError, ...]"
 *   log.warn("rejected: {}", e.reasons());
 * }
 * }</pre>
 */
public class AppendRejectedException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  // An array rather than a List: an exception is Serializable, and List is not.
  private final String[] reasons;

  /** @param reasons one entry per failed action, naming the action and DynamoDB's code and message */
  public AppendRejectedException(String aggregateName, String aggregateId, List<String> reasons, Throwable cause) {
    super("append to " + aggregateName + " " + aggregateId + " rejected by DynamoDB: " + reasons, cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.reasons = List.copyOf(reasons).toArray(String[]::new);
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** DynamoDB's reasons, one per failed action. */
  public List<String> reasons() {
    return List.of(reasons);
  }
}
