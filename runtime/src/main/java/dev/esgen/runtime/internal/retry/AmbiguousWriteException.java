package dev.esgen.runtime.internal.retry;

/**
 * Thrown by {@link RetryingDynamoDbClient} to the storage layouts, never to users: a write may have been
 * applied although the call failed (a lost response, a time-out, a server error, or any failure after
 * such an attempt). The layout resolves it by reading back what is stored, using the append id every
 * append stores with its events.
 *
 * <pre>{@code
 * try {
 *   client.updateItem(update);
 * } catch (AmbiguousWriteException e) {
 *   return resolveByReadingBack(request, e.getCause());
 * }
 * }</pre>
 */
public final class AmbiguousWriteException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** @param lastFailure the failure of the last attempt, whose outcome is not known or not decisive */
  public AmbiguousWriteException(RuntimeException lastFailure) {
    super("the write may have been applied: " + Failures.describe(lastFailure), lastFailure);
  }

  /** The failure of the last attempt. */
  public RuntimeException lastFailure() {
    return (RuntimeException) getCause();
  }
}
