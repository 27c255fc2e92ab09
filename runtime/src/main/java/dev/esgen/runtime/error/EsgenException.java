package dev.esgen.runtime.error;

/**
 * The unchecked base of every failure esgen reports.
 *
 * <p>Each subclass names one kind of failure and carries its context (aggregate, id, versions, sizes)
 * both in its message and in getters, so callers can catch what they can handle and let the rest
 * propagate.
 *
 * <pre>{@code
 * try {
 *   accounts.transact(id, account -> account.deposit(500));
 * } catch (AggregateNotFoundException e) {
 *   return notFound(e.aggregateId());
 * } catch (EsgenException e) {
 *   log.error("could not deposit", e);
 *   throw e;
 * }
 * }</pre>
 */
public abstract class EsgenException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, naming aggregate, column, value or limit as they apply, never stored contents
   */
  protected EsgenException(String message) {
    super(message);
  }

  /**
   * @param message what happened, naming aggregate, column, value or limit as they apply, never stored contents
   * @param cause the failure behind it
   */
  protected EsgenException(String message, Throwable cause) {
    super(message, cause);
  }
}
