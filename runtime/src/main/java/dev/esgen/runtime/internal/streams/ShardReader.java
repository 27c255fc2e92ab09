package dev.esgen.runtime.internal.streams;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads one shard batch by batch, and keeps a batch until it is handled.
 *
 * <p>{@link #next} returns the same batch again until {@link #advance()} says it was handled and
 * checkpointed, so a batch whose handler failed is sent again unchanged. The shard iterator is taken
 * from the checkpoint (after its sequence number, or at its start) when there is none, and again when
 * DynamoDB says it expired (iterators live 15 minutes): since the checkpoint is stored before the next
 * iterator is used, reading on after it neither repeats nor skips a record.
 *
 * <pre>{@code
 * ShardReader reader = new ShardReader(streams, streamArn, "shardId-1", 1000);
 * ShardReader.Batch batch = reader.next(checkpoint);
 * handler.handle("shardId-1", batch.records());
 * store.save(checkpoint.after(batch.lastSequenceNumber(), batch.endsShard()), streamArn);
 * reader.advance();
 * }</pre>
 */
public final class ShardReader {

  /** The poller's logger, as the coordinator's: the one a user configures for everything the poller says. */
  private static final Logger LOG = LoggerFactory.getLogger("dev.esgen.runtime.streams.StreamPoller");

  /**
   * Records read from a shard, in its order.
   *
   * @param endsShard whether the shard is closed and these are its last records (possibly none)
   */
  public record Batch(List<Record> records, boolean endsShard) {

    /** The sequence number of the last record; {@code null} for an empty batch. */
    public String lastSequenceNumber() {
      return records.isEmpty() ? null : records.get(records.size() - 1).dynamodb().sequenceNumber();
    }
  }

  private final DynamoDbStreamsClient streams;
  private final String streamArn;
  private final String shardId;
  private final int batchSize;
  private String iterator;
  private Batch pending;
  private String pendingNextIterator;
  private int failures;
  private Instant retryAt;

  public ShardReader(DynamoDbStreamsClient streams, String streamArn, String shardId, int batchSize) {
    this.streams = Objects.requireNonNull(streams, "streams");
    this.streamArn = Objects.requireNonNull(streamArn, "streamArn");
    this.shardId = Objects.requireNonNull(shardId, "shardId");
    this.batchSize = batchSize;
  }

  /** The batch not handled yet, read with one GetRecords after {@code checkpoint} if there is none. */
  public Batch next(Checkpoint checkpoint) {
    if (pending != null) {
      return pending;
    }
    if (iterator == null) {
      iterator = iteratorAt(checkpoint);
    }
    GetRecordsResponse response;
    try {
      response = getRecords();
    } catch (ExpiredIteratorException expired) {
      if (!checkpoint.hasSequenceNumber() && checkpoint.startAt() == ShardIteratorType.LATEST) {
        LOG.warn("shard {}: its iterator expired before any of its records was handled; it starts at its end"
            + " again, so records written to it since it was last read are skipped (TRIM_HORIZON rules this out)",
            shardId);
      }
      iterator = iteratorAt(checkpoint);
      response = getRecords();
    }
    pending = new Batch(response.records(), response.nextShardIterator() == null);
    pendingNextIterator = response.nextShardIterator();
    return pending;
  }

  /** The pending batch was handled and its checkpoint stored: read on after it. */
  public void advance() {
    iterator = pendingNextIterator;
    pending = null;
    pendingNextIterator = null;
    failures = 0;
    retryAt = null;
  }

  /**
   * The pending batch (or the request for it) failed at {@code now}: it is sent again after
   * {@code backoff}.
   *
   * @return the wait before the next attempt
   */
  public Duration failed(Instant now, RetryBackoff backoff) {
    failures++;
    Duration wait = backoff.after(failures);
    retryAt = now.plus(wait);
    return wait;
  }

  /** Whether the pending batch waits for its next attempt at {@code now}. */
  public boolean backingOff(Instant now) {
    return retryAt != null && now.isBefore(retryAt);
  }

  /** How many times in a row the pending batch failed. */
  public int failures() {
    return failures;
  }

  private GetRecordsResponse getRecords() {
    String from = iterator;
    return streams.getRecords(b -> b.shardIterator(from).limit(batchSize));
  }

  private String iteratorAt(Checkpoint checkpoint) {
    if (checkpoint.hasSequenceNumber()) {
      return streams.getShardIterator(b -> b
          .streamArn(streamArn)
          .shardId(shardId)
          .shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
          .sequenceNumber(checkpoint.sequenceNumber())).shardIterator();
    }
    return streams.getShardIterator(b -> b
        .streamArn(streamArn)
        .shardId(shardId)
        .shardIteratorType(checkpoint.startAt())).shardIterator();
  }
}
