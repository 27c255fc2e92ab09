package dev.esgen.runtime.streams;

import dev.esgen.runtime.error.StoreException;
import java.time.Duration;

/**
 * The stream a {@link StreamPoller} reads does not exist: DynamoDB Streams answered
 * {@code ResourceNotFoundException} for it for longer than a stream that is still being enabled takes.
 * A stream stays readable for 24 hours after it was disabled or its table deleted, and is gone after
 * that; a stream switched on again is a new one, with a new ARN. The old ARN never comes back, so the
 * poller stops.
 *
 * <p>Records of the old stream the consumer had not handled are lost. The remedy is a replay, as for
 * {@link StreamDataTrimmedException}: rebuild the consumer's projections from the tables (see
 * {@code docs/projections.md}), then start the consumer on the table's current stream, under a new name
 * or after deleting its checkpoint items (partition key {@code checkpoint#{consumer}}).
 *
 * <pre>{@code
 * try {
 *   poller.pollOnce();
 * } catch (MissingStreamException e) {
 *   alertOperators(e.getMessage());   // names the consumer, the stream ARN and what to do
 * }
 * }</pre>
 */
public class MissingStreamException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String consumer;
  private final String streamArn;

  /**
   * @param missingFor how long DynamoDB Streams has not found the stream
   */
  public MissingStreamException(String consumer, String checkpointTable, String streamArn, Duration missingFor,
      Throwable cause) {
    super("stream " + streamArn + " of consumer '" + consumer + "' does not exist: DynamoDB Streams has not found it"
        + " for " + missingFor.toSeconds() + " s. A stream is gone 24 hours after it was disabled or its table"
        + " deleted, and one switched on again has a new ARN; a wrong ARN (region, account) is not found either."
        + " Records of it the consumer had not handled are lost: replay the consumer's projections from the tables"
        + " (docs/projections.md), then start it on the table's current stream under a new name or after deleting"
        + " its checkpoints (" + ConsumerCheckpoints.describe(consumer, checkpointTable) + ")", cause);
    this.consumer = consumer;
    this.streamArn = streamArn;
  }

  /** The consumer whose stream is gone. */
  public String consumer() {
    return consumer;
  }

  /** The ARN of the stream that does not exist. */
  public String streamArn() {
    return streamArn;
  }
}
