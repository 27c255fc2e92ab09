package dev.esgen.runtime.faults;

/**
 * A failure {@link FaultInjector} can make a DynamoDB request end in, and whether DynamoDB applied the
 * request before the caller saw it fail. The kinds are the ones esgen's retry layer must tell apart:
 * a lost response or a time-out after DynamoDB applied the write (the caller cannot know it was
 * applied), failures that say nothing was applied (throttling, a cancelled transaction) and failures
 * that leave the outcome open although nothing was applied (a server error or a time-out before the
 * request reached DynamoDB).
 */
public enum Fault {

  /** DynamoDB applied the request; its response is replaced by an HTTP 500. */
  LOST_RESPONSE(true, false),

  /**
   * DynamoDB applied the request; then other writers run (see {@link FaultInjector#onLostResponse}), then
   * the response is replaced by an HTTP 500. Read-backs see many later appends.
   */
  LOST_RESPONSE_AFTER_OTHERS(true, false),

  /** DynamoDB applied the request; the client then times out the attempt (an {@code SdkClientException}). */
  TIMEOUT_AFTER_APPLY(true, false),

  /** The attempt times out before the request is sent: nothing applied, outcome unknown to the caller. */
  TIMEOUT_BEFORE_SEND(false, false),

  /** An HTTP 500 ({@code InternalServerError}) without applying anything: outcome unknown to the caller. */
  SERVER_ERROR(false, false),

  /** {@code ProvisionedThroughputExceededException}, HTTP 400: nothing applied, and DynamoDB says so. */
  THROTTLED(false, false),

  /** A {@code TransactWriteItems} cancelled with a {@code TransactionConflict} reason: nothing applied. */
  TRANSACTION_CONFLICT(false, true),

  /** A {@code TransactWriteItems} cancelled with a {@code ThrottlingError} reason: nothing applied. */
  THROTTLED_CANCELLATION(false, true);

  private final boolean applied;
  private final boolean transactionsOnly;

  Fault(boolean applied, boolean transactionsOnly) {
    this.applied = applied;
    this.transactionsOnly = transactionsOnly;
  }

  /** Whether DynamoDB carries out the request before the caller sees the failure. */
  public boolean applied() {
    return applied;
  }

  /** Whether the fault only makes sense for {@code TransactWriteItems}. */
  public boolean transactionsOnly() {
    return transactionsOnly;
  }
}
