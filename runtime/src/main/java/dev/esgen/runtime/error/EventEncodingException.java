package dev.esgen.runtime.error;

/**
 * The event codec failed to write an event; nothing was stored.
 *
 * <pre>{@code
 * try {
 *   accounts.create(opened);
 * } catch (EventEncodingException e) {
 *   // "cannot encode event of type 'account-opened' for bank-account 5f0c...: ..."
 * }
 * }</pre>
 */
public class EventEncodingException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final String eventType;

  /** @param cause why encoding failed; it is replaced by its {@link RedactedException} */
  public EventEncodingException(String aggregateName, String aggregateId, String eventType, Throwable cause) {
    this(aggregateName, aggregateId, eventType, RedactedException.of(cause));
  }

  private EventEncodingException(String aggregateName, String aggregateId, String eventType, RedactedException cause) {
    super("cannot encode event of type '" + eventType + "' for " + aggregateName + " " + aggregateId + ": "
        + cause.summary(), cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.eventType = eventType;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The stored type name of the event that could not be written. */
  public String eventType() {
    return eventType;
  }
}
