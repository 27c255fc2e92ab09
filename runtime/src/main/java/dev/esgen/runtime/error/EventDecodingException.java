package dev.esgen.runtime.error;

/**
 * A stored event could not be read back: its body is not valid for its type, or its type name is not
 * one of the aggregate's event types (for example an event class was renamed without
 * {@code @EventType} keeping the stored name).
 *
 * <pre>{@code
 * try {
 *   accounts.load(id);
 * } catch (EventDecodingException e) {
 *   // "cannot decode event 17 (type 'money-deposited') of bank-account 5f0c...: ..."
 *   log.error("stream {} seq {} type {}", e.aggregateId(), e.seqNr(), e.eventType(), e);
 * }
 * }</pre>
 */
public class EventDecodingException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final long seqNr;
  private final String eventType;

  public EventDecodingException(
      String aggregateName, String aggregateId, long seqNr, String eventType, Throwable cause) {
    super("cannot decode event " + seqNr + " (type '" + eventType + "') of " + aggregateName + " " + aggregateId
        + ": " + cause.getMessage(), cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.seqNr = seqNr;
    this.eventType = eventType;
  }

  public String aggregateName() {
    return aggregateName;
  }

  public String aggregateId() {
    return aggregateId;
  }

  public long seqNr() {
    return seqNr;
  }

  /** The stored type name. */
  public String eventType() {
    return eventType;
  }
}
