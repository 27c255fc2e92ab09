package dev.esgen.runtime.error;

/**
 * A failure of the underlying store itself rather than of the caller's expectations: a missing table,
 * a rejected transaction, a stream whose stored data is inconsistent.
 *
 * <pre>{@code
 * try {
 *   accounts.load(id);
 * } catch (StoreException e) {
 *   alertOperators(e);        // not something a retry of the same command fixes
 * }
 * }</pre>
 */
public abstract class StoreException extends EsgenException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what happened, never stored contents
   */
  protected StoreException(String message) {
    super(message);
  }

  /**
   * @param message what happened, never stored contents
   * @param cause the failure behind it
   */
  protected StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
