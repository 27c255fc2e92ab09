package dev.esgen.spring.boot.autoconfigure;

/**
 * The {@code esgen.*} properties bound, but make no valid store configuration: {@code StoreConfig},
 * {@code RetryPolicy} or {@code StateCachePolicy} refused them, or a key names no aggregate type of the
 * application. Set apart from other failures of the same beans (a value that does not bind, a
 * {@link StoreConfigCustomizer} or a listener that throws) so that only this one is reported as a property
 * to correct.
 */
final class InvalidPropertiesException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The property to correct when the message alone does not tell it, or null. */
  private final String property;

  InvalidPropertiesException(IllegalArgumentException refused) {
    super(refused.getMessage(), refused);
    this.property = null;
  }

  InvalidPropertiesException(String message, String property) {
    super(message);
    this.property = property;
  }

  /** The property to correct, when the exception was made knowing it. */
  String property() {
    return property;
  }
}
