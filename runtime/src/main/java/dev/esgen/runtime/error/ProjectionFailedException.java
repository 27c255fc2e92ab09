package dev.esgen.runtime.error;

/**
 * A projection could not take an event of a stream, after as many attempts as the change feed's retry
 * policy allows: its handler kept throwing, its read-model writes were refused, or esgen could not read
 * or decode the event, or store the projection's position. The projection's position in that stream
 * stays before the event, so no later event of the stream was delivered; other streams went on.
 *
 * <p>Thrown by {@code ChangeFeed.handle}, so that the transport sends the records again, and by
 * {@code ChangeFeed.replay}. The message names projection, stream and event, never the event's content;
 * the cause is what the last attempt failed with: for the handler's own exceptions, whatever it threw.
 * When several streams failed, the first is reported and the others are
 * {@linkplain #getSuppressed() suppressed} exceptions of the same type.
 *
 * <pre>{@code
 * try {
 *   feed.handle(shardId, records);
 * } catch (ProjectionFailedException e) {
 *   // "projection 'balances' failed on event 7 (type 'money-deposited') of bank-account 42 after 4
 *   //  attempts: IllegalStateException"
 *   alert(e.projection(), e.aggregateName(), e.aggregateId(), e.seqNr());
 *   throw e;                                     // the transport redelivers from its checkpoint
 * }
 * }</pre>
 */
public class ProjectionFailedException extends EsgenException {

  private static final long serialVersionUID = 1L;

  private final String projection;
  private final String aggregateName;
  private final String aggregateId;
  private final long seqNr;
  private final String eventType;
  private final int attempts;

  /**
   * @param eventType the type name of the event: the current one, as the projection was handed it (also for
   *     an event stored under an alias or split from another type), the stored one when the event could not
   *     be decoded; {@code null} when it could not be read
   * @param cause what the last attempt failed with
   */
  public ProjectionFailedException(String projection, String aggregateName, String aggregateId, long seqNr,
      String eventType, int attempts, Throwable cause) {
    super("projection '" + projection + "' failed on event " + seqNr
        + (eventType == null ? "" : " (type '" + eventType + "')") + " of " + aggregateName + " " + aggregateId
        + " after " + attempts + (attempts == 1 ? " attempt: " : " attempts: ") + summary(cause), cause);
    this.projection = projection;
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.seqNr = seqNr;
    this.eventType = eventType;
    this.attempts = attempts;
  }

  /**
   * esgen's own exceptions say what went wrong without quoting stored data, so their message is kept;
   * of any other exception only the class is named, as its message may quote the event.
   */
  private static String summary(Throwable cause) {
    return cause instanceof EsgenException ? cause.getMessage() : cause.getClass().getSimpleName();
  }

  /** The name the projection was registered under. */
  public String projection() {
    return projection;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }

  /** The event the projection stopped at: its position in the stream is {@code seqNr - 1}. */
  public long seqNr() {
    return seqNr;
  }

  /**
   * The event's type name: the current one, as the projection was handed it; the stored one when the event
   * could not be decoded; {@code null} when it could not be read.
   */
  public String eventType() {
    return eventType;
  }

  /** How many times the event was tried. */
  public int attempts() {
    return attempts;
  }
}
