package dev.esgen.runtime.error;


/**
 * DynamoDB kept refusing a request (throttling, transaction conflicts, server errors) until the
 * operation's {@link dev.esgen.runtime.config.RetryPolicy} ran out of attempts or time. For a write, esgen
 * throws this only when no attempt can have been applied: nothing was written. A write whose outcome
 * is unknown ends in {@link AppendOutcomeUnknownException} instead.
 *
 * <pre>{@code
 * try {
 *   accounts.transact(id, commandId, account -> account.deposit(500));
 * } catch (StoreUnavailableException e) {
 *   // "TransactWriteItems on [journal, snapshot] gave up after 20 attempts (last: ThrottlingError,
 *   //  TRANSIENT)"
 *   return serviceUnavailable(e.attempts());
 * }
 * }</pre>
 */
public class StoreUnavailableException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String request;
  private final int attempts;
  private final FailureKind lastFailureKind;

  /**
   * @param request what was sent, e.g. {@code "GetItem on [snapshot]"}: operation and tables, no values
   * @param attempts how many attempts the operation made in all
   * @param lastFailureKind the class of the last failure
   * @param lastFailureCode DynamoDB's error code of the last failure, or its exception class
   */
  public StoreUnavailableException(
      String request, int attempts, FailureKind lastFailureKind, String lastFailureCode, Throwable cause) {
    super(request + " gave up after " + attempts + " attempt" + (attempts == 1 ? "" : "s") + " (last: "
        + lastFailureCode + ", " + lastFailureKind + ")", cause);
    this.request = request;
    this.attempts = attempts;
    this.lastFailureKind = lastFailureKind;
  }

  /** The request that was refused: DynamoDB operation and tables. */
  public String request() {
    return request;
  }

  /** How many attempts were made. */
  public int attempts() {
    return attempts;
  }

  /** The kind of the last failure. */
  public FailureKind lastFailureKind() {
    return lastFailureKind;
  }
}
