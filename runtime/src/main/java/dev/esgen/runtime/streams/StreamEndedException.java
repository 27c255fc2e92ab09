package dev.esgen.runtime.streams;

import dev.esgen.runtime.error.StoreException;
import java.util.Optional;

/**
 * The stream a {@link StreamPoller} reads was disabled (its table's stream switched off, or the table
 * deleted), and the consumer has handled and checkpointed every record of it: nothing more will come, so
 * the poller stops instead of idling until DynamoDB deletes the stream 24 hours later. A stream switched
 * on again is a new one, with a new ARN, which the poller does not read.
 *
 * <p>No record of the old stream was lost, but records written while the table had no stream were never
 * streamed. The remedy is a replay, as for {@link StreamDataTrimmedException}: rebuild the consumer's
 * projections from the tables (see {@code docs/projections.md}), then start the consumer on the table's
 * current stream, under a new name or after deleting its checkpoint items (partition key
 * {@code checkpoint#{consumer}}).
 *
 * <p>A poller started for a consumer whose checkpoints belong to another stream than the one it was given
 * stops the same way, at its first poll: typically the consumer did not run while its table's stream was
 * switched off and on, and the poller, given the table's name, found the new stream. The consumer's start
 * item records its stream; moving a consumer to another stream would skip what the table had no stream for
 * (and what of the old stream the consumer had not handled), so a person decides it, by the same remedy.
 *
 * <pre>{@code
 * try {
 *   poller.pollOnce();
 * } catch (StreamEndedException e) {
 *   alertOperators(e.getMessage());   // names the consumer, the old stream, the table's new one, what to do
 * }
 * }</pre>
 */
public class StreamEndedException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String consumer;
  private final String streamArn;
  private final String table;
  private final String currentStreamArn;

  /**
   * @param table the stream's table, {@code null} if DynamoDB Streams did not name it
   * @param currentStreamArn the table's stream now, {@code null} if it has none or that is not known
   */
  public StreamEndedException(String consumer, String checkpointTable, String streamArn, String table,
      String currentStreamArn) {
    this("stream " + streamArn + " of consumer '" + consumer + "' has ended: it was disabled (its table's stream"
        + " switched off, or the table deleted), and the consumer has handled and checkpointed every record of it. "
        + tableNow(table, currentStreamArn)
        + "Records written while the table had no stream were never streamed: replay the consumer's projections from"
        + " the tables (docs/projections.md), then start it on the table's current stream under a new name or after"
        + " deleting its checkpoints (" + ConsumerCheckpoints.describe(consumer, checkpointTable) + ")",
        consumer, streamArn, table, currentStreamArn, null);
  }

  private StreamEndedException(String message, String consumer, String streamArn, String table,
      String currentStreamArn, Throwable cause) {
    super(message, cause);
    this.consumer = consumer;
    this.streamArn = streamArn;
    this.table = table;
    this.currentStreamArn = currentStreamArn;
  }

  /**
   * A poller was started for {@code consumer} on {@code pollerStreamArn}, but the consumer's checkpoints belong
   * to {@code streamArn}, the stream its start item records.
   *
   * @param table the table of {@code pollerStreamArn}, {@code null} if DynamoDB Streams did not name it
   */
  public static StreamEndedException startedOnAnotherStream(String consumer, String checkpointTable,
      String streamArn, String pollerStreamArn, String table) {
    return new StreamEndedException("consumer '" + consumer + "' reads stream " + streamArn + ", and its checkpoints ("
        + ConsumerCheckpoints.describe(consumer, checkpointTable) + ") belong to it, but this poller was started on"
        + " stream " + pollerStreamArn + (table == null ? "" : " of table '" + table + "'")
        + ": a poller does not move a consumer to another stream. A table's stream switched off and on again is a"
        + " new stream, with a new ARN, and records written while the table had no stream were never streamed; any"
        + " records of " + streamArn + " the consumer had not handled are not delivered either. Replay the consumer's"
        + " projections from the tables (docs/projections.md), then start it on " + pollerStreamArn
        + " under a new name or after deleting its checkpoints. A consumer name used for another table's stream"
        + " needs a name of its own.", consumer, streamArn, table, pollerStreamArn, null);
  }

  private static String tableNow(String table, String currentStreamArn) {
    if (table == null) {
      return "";
    }
    return currentStreamArn != null
        ? "Table '" + table + "' has a new stream, " + currentStreamArn + ", which this poller does not read. "
        : "Table '" + table + "' has no stream now, as far as DescribeTable shows. ";
  }

  /** The consumer whose stream ended. */
  public String consumer() {
    return consumer;
  }

  /** The ARN of the stream that ended: the one the consumer's checkpoints belong to. */
  public String streamArn() {
    return streamArn;
  }

  /**
   * The stream's table (of a poller started on another stream, that stream's table); empty if DynamoDB Streams
   * did not name it.
   */
  public Optional<String> table() {
    return Optional.ofNullable(table);
  }

  /**
   * The table's stream now, a new one (of a poller started on another stream than its consumer's, that stream);
   * empty if it has none or that is not known.
   */
  public Optional<String> currentStreamArn() {
    return Optional.ofNullable(currentStreamArn);
  }
}
