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
    super("stream " + streamArn + " of consumer '" + consumer + "' has ended: it was disabled (its table's stream"
        + " switched off, or the table deleted), and the consumer has handled and checkpointed every record of it. "
        + tableNow(table, currentStreamArn)
        + "Records written while the table had no stream were never streamed: replay the consumer's projections from"
        + " the tables (docs/projections.md), then start it on the table's current stream under a new name or after"
        + " deleting its checkpoints (partition key 'checkpoint#" + consumer + "' of table '" + checkpointTable + "')");
    this.consumer = consumer;
    this.streamArn = streamArn;
    this.table = table;
    this.currentStreamArn = currentStreamArn;
  }

  private static String tableNow(String table, String currentStreamArn) {
    if (table == null) {
      return "";
    }
    return currentStreamArn != null
        ? "Table '" + table + "' has a new stream, " + currentStreamArn + ", which this poller does not read. "
        : "Table '" + table + "' has no stream now, as far as DescribeTable shows. ";
  }

  /** The consumer that read the stream to its end. */
  public String consumer() {
    return consumer;
  }

  /** The ARN of the stream that ended. */
  public String streamArn() {
    return streamArn;
  }

  /** The stream's table, empty if DynamoDB Streams did not name it. */
  public Optional<String> table() {
    return Optional.ofNullable(table);
  }

  /** The table's stream now, a new one; empty if it has none or that is not known. */
  public Optional<String> currentStreamArn() {
    return Optional.ofNullable(currentStreamArn);
  }
}
