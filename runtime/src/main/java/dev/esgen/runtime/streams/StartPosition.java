package dev.esgen.runtime.streams;

/**
 * Where a consumer that has no checkpoints yet starts reading a stream. A consumer with checkpoints
 * always goes on after them, whatever this says.
 *
 * <pre>{@code
 * StreamPoller.builder()...startPosition(StartPosition.LATEST)...build();
 * }</pre>
 */
public enum StartPosition {

  /**
   * At the oldest record the stream still holds (DynamoDB Streams keeps 24 hours): a new projection
   * sees everything the stream has. The default.
   */
  TRIM_HORIZON,

  /**
   * After the newest record at the moment the consumer first reads the stream: shards that are closed
   * then are skipped, open ones are read from their end. Until it has handled a record of a shard, a
   * restarted consumer starts that shard at its end again.
   */
  LATEST
}
