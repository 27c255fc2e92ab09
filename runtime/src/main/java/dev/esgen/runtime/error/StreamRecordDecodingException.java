package dev.esgen.runtime.error;

/**
 * A DynamoDB Streams record of an esgen table is not what esgen writes: an item of the journal or the
 * tip table without the attributes an event item has, numbers that do not add up, or a record without
 * the new image the change feed reads (the table's stream was enabled with another view type).
 *
 * <p>Thrown by {@code ChangeFeed.handle} before any event of the batch is delivered. The message names
 * the record (its event id and sequence number) and the stream, never a stored value.
 *
 * <pre>{@code
 * try {
 *   feed.handle(shardId, records);
 * } catch (StreamRecordDecodingException e) {
 *   // "cannot read stream record 7f3e... (sequence number 4100...) of counter item [counter-3,
 *   //  counter-42-00000000000000000007]: the record has no new image; enable the table's stream with
 *   //  view type NEW_IMAGE"
 *   log.error("record {} is not an esgen event", e.eventId(), e);
 * }
 * }</pre>
 */
public class StreamRecordDecodingException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String eventId;
  private final String sequenceNumber;

  /**
   * @param eventId the stream record's {@code eventID}
   * @param sequenceNumber the record's sequence number in its shard
   * @param item what the record is about, e.g. {@code counter 42} or
   *     {@code counter item [counter-3, counter-42-00000000000000000007]}
   * @param problem what is wrong with it, without stored values
   */
  public StreamRecordDecodingException(String eventId, String sequenceNumber, String item, String problem) {
    super("cannot read stream record " + eventId + " (sequence number " + sequenceNumber + ") of " + item + ": "
        + problem);
    this.eventId = eventId;
    this.sequenceNumber = sequenceNumber;
  }

  /** The stream record's {@code eventID}. */
  public String eventId() {
    return eventId;
  }

  /** The stream record's sequence number in its shard. */
  public String sequenceNumber() {
    return sequenceNumber;
  }
}
