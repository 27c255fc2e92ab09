package dev.esgen.runtime.streams;

import dev.esgen.runtime.error.StoreException;

/**
 * The table a {@link StreamPoller} keeps its checkpoints in does not exist.
 *
 * <pre>{@code
 * try {
 *   poller.pollOnce();
 * } catch (MissingCheckpointTableException e) {
 *   CheckpointTable.createIfMissing(client, e.table());   // in a dev environment only
 * }
 * }</pre>
 */
public class MissingCheckpointTableException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String table;

  /**
   * @param table the checkpoint table that does not exist
   * @param cause DynamoDB's refusal
   */
  public MissingCheckpointTableException(String table, Throwable cause) {
    super("checkpoint table '" + table + "' does not exist: create it with CheckpointTable.createIfMissing(client, \""
        + table + "\") or as described in docs/feed-transports.md", cause);
    this.table = table;
  }

  /** The missing table. */
  public String table() {
    return table;
  }
}
