package dev.esgen.runtime.streams;

import dev.esgen.runtime.error.StoreException;
import java.util.Optional;

/**
 * Records a consumer had not handled are gone from the stream: DynamoDB Streams keeps a record for 24
 * hours, and the consumer was stopped, or stuck, for longer. Reading on would skip them, so the poller
 * stops. (A table's stream switched off and on again is a new stream: a consumer of the old one stops with
 * {@link StreamEndedException}.)
 *
 * <p>The remedy is a replay: rebuild the consumer's projections from the tables (see
 * {@code docs/projections.md}), then start the consumer afresh, under a new name or after deleting its
 * checkpoint items (partition key {@code checkpoint#{consumer}} of the checkpoint table). The feed's
 * positions drop what the replay already delivered.
 *
 * <pre>{@code
 * try {
 *   poller.pollOnce();
 * } catch (StreamDataTrimmedException e) {
 *   alertOperators(e.getMessage());   // names the consumer, the shard and what to do
 * }
 * }</pre>
 */
public class StreamDataTrimmedException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String consumer;
  private final String shardId;
  private final String sequenceNumber;

  /**
   * @param sequenceNumber the last sequence number the consumer handled in the shard; {@code null} if none
   */
  public StreamDataTrimmedException(String consumer, String checkpointTable, String streamArn, String shardId,
      String sequenceNumber, Throwable cause) {
    super("consumer '" + consumer + "' missed records of shard " + shardId + " of stream " + streamArn
        + (sequenceNumber == null ? "" : " after sequence number " + sequenceNumber)
        + ": they were trimmed from the stream (DynamoDB Streams keeps records for 24 hours) before it handled"
        + " them, and reading on would skip them. Replay the consumer's projections from the tables"
        + " (docs/projections.md), then start it under a new name or delete its checkpoints ("
        + ConsumerCheckpoints.describe(consumer, checkpointTable) + ")", cause);
    this.consumer = consumer;
    this.shardId = shardId;
    this.sequenceNumber = sequenceNumber;
  }

  /** The consumer that missed records. */
  public String consumer() {
    return consumer;
  }

  /** The shard whose records were trimmed. */
  public String shardId() {
    return shardId;
  }

  /** The last sequence number the consumer handled in the shard, empty if it handled none. */
  public Optional<String> sequenceNumber() {
    return Optional.ofNullable(sequenceNumber);
  }
}
