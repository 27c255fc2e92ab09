package dev.esgen.runtime.error;

/**
 * What a failed DynamoDB request or append means, and so what esgen does next. Every failure is
 * classified once, by esgen's retry layer, and one retry budget
 * ({@link dev.esgen.runtime.config.RetryPolicy}) decides for all of them whether there is time and attempts left.
 *
 * <pre>{@code
 * StoreListener listener = new StoreListener() {
 *   public void onOperation(OperationMetrics m) {}
 *   public void onFailedAttempt(FailedAttempt a) {
 *     if (a.kind() == FailureKind.OUTCOME_UNKNOWN) log.info("{} {}: reading back", a.aggregateType(), a.operation());
 *   }
 * };
 * }</pre>
 */
public enum FailureKind {

  /**
   * Another writer got there first: a condition on the stream's version (or on an item the append
   * expected absent) failed. Nothing of the append was stored; {@code transact} reloads and decides
   * again, {@code append} with an explicit version reports it.
   */
  VERSION_CONFLICT,

  /**
   * DynamoDB did not carry out the request and says so: throttling, a transaction conflict or a
   * transaction cancelled only for such reasons. Sent again after a jittered pause.
   */
  TRANSIENT,

  /**
   * The request may or may not have been applied: a time-out, a broken connection, a server error.
   * Reads are sent again; a transactional write is sent again with the same client request token,
   * which DynamoDB applies at most once; any other write is resolved by reading back what is stored.
   */
  OUTCOME_UNKNOWN,

  /** Retrying cannot help: bad input, a missing table, a validation error. Reported at once. */
  FATAL
}
