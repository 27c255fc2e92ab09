package dev.esgen.runtime.error;

/**
 * A stored event could not be read back: its body is not valid for its type and version, its type name
 * is not one of the aggregate's event types (for example an event class was renamed without
 * {@code @EventType} keeping the stored name or naming the old one in its aliases), no upcaster reads its
 * version, or an upcaster failed.
 *
 * <p>Neither the message nor the cause chain quotes the stored event, which may hold personal data: the
 * cause is a {@link RedactedException} naming the original exception's class and, for a JSON error,
 * where in the body it occurred, with the original's stack trace. For a type name or version no code
 * reads, the cause keeps the message of esgen's {@link dev.esgen.runtime.codec.UnknownEventTypeException}
 * or {@link dev.esgen.runtime.codec.UnknownEventVersionException}, which names only the aggregate, the
 * stored type and version and the code's type names, and this message ends with it.
 *
 * <pre>{@code
 * try {
 *   accounts.load(id);
 * } catch (EventDecodingException e) {
 *   // "cannot decode event 17 (type 'money-deposited') of bank-account 5f0c...: InvalidFormatException
 *   //  at $.amount, line 1, column 11"
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
  private final int eventVersion;

  /**
   * An event stored at version 1.
   *
   * @param cause why decoding failed; it is replaced by its {@link RedactedException}
   */
  public EventDecodingException(
      String aggregateName, String aggregateId, long seqNr, String eventType, Throwable cause) {
    this(aggregateName, aggregateId, seqNr, eventType, 1, cause);
  }

  /**
   * An event stored at {@code eventVersion}.
   *
   * @param cause why decoding failed; it is replaced by its {@link RedactedException}
   */
  public EventDecodingException(
      String aggregateName, String aggregateId, long seqNr, String eventType, int eventVersion, Throwable cause) {
    this(aggregateName, aggregateId, seqNr, eventType, eventVersion, RedactedException.of(cause));
  }

  private EventDecodingException(String aggregateName, String aggregateId, long seqNr, String eventType,
      int eventVersion, RedactedException cause) {
    super("cannot decode event " + seqNr + " (type '" + eventType + "'"
        + (eventVersion == 1 ? "" : ", version " + eventVersion) + ") of " + aggregateName + " " + aggregateId
        + ": " + cause.summary(), cause);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.seqNr = seqNr;
    this.eventType = eventType;
    this.eventVersion = eventVersion;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The seq_nr of the event that does not read. */
  public long seqNr() {
    return seqNr;
  }

  /** The stored type name. */
  public String eventType() {
    return eventType;
  }

  /** The version the event was stored at: 1 for an event stored without one. */
  public int eventVersion() {
    return eventVersion;
  }
}
