package dev.esgen.runtime.streams;

import dev.esgen.runtime.error.StoreException;

/**
 * A {@link StreamPoller} was pointed at a table that has no DynamoDB stream.
 *
 * <pre>{@code
 * try {
 *   poller.pollOnce();
 * } catch (StreamNotEnabledException e) {
 *   // enable a stream on e.table() (NEW_IMAGE, or NEW_AND_OLD_IMAGES), then poll again
 * }
 * }</pre>
 */
public class StreamNotEnabledException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String table;

  /**
   * @param table the table without an enabled stream
   */
  public StreamNotEnabledException(String table) {
    super("table '" + table + "' has no DynamoDB stream: enable one (StreamSpecification with StreamViewType"
        + " NEW_IMAGE or NEW_AND_OLD_IMAGES) as described in docs/feed-transports.md, or give the poller a stream ARN");
    this.table = table;
  }

  /** The table without a stream. */
  public String table() {
    return table;
  }
}
