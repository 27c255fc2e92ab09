package dev.esgen.runtime.internal.streams;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.StreamDescription;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The shards a stream lists and which of them a consumer may read now.
 *
 * <p>A DynamoDB stream's shards form a forest: when a shard closes, one or two children continue its
 * partition's records, each naming it as {@code ParentShardId}. The records of one item (and of one
 * partition key) move from the parent to a child, so a child is read only after its parent is finished;
 * a child whose parent the stream no longer lists (trimmed after 24 hours, or never seen) is readable.
 * Shards are kept in the order DescribeStream gives; lineage, not that order, decides what is readable.
 *
 * <p>A stream that was disabled (its table's stream switched off, or the table deleted) gets no new shards,
 * and its shards close; once every one of them is finished, it has {@linkplain #ended ended}.
 *
 * <pre>{@code
 * ShardLineage lineage = ShardLineage.describe(streams, streamArn);
 * List<Shard> now = lineage.readable(checkpoints);
 * }</pre>
 */
public final class ShardLineage {

  private final Map<String, Shard> shards = new LinkedHashMap<>();
  private final StreamStatus status;
  private final String tableName;

  /**
   * @param status the stream's status, {@code null} if DynamoDB Streams gave none
   * @param tableName the stream's table, {@code null} if DynamoDB Streams gave none
   */
  public ShardLineage(List<Shard> shards, StreamStatus status, String tableName) {
    shards.forEach(shard -> this.shards.put(shard.shardId(), shard));
    this.status = status;
    this.tableName = tableName;
  }

  /** Every shard {@code streamArn} lists, following DescribeStream's pages. */
  public static ShardLineage describe(DynamoDbStreamsClient streams, String streamArn) {
    List<Shard> shards = new ArrayList<>();
    StreamDescription first = null;
    String start = null;
    do {
      String from = start;
      DescribeStreamResponse page =
          streams.describeStream(b -> b.streamArn(streamArn).exclusiveStartShardId(from));
      // The first page's status: a stream disabled by then gets no new shards, so the pages after it list them all.
      first = first == null ? page.streamDescription() : first;
      shards.addAll(page.streamDescription().shards());
      start = page.streamDescription().lastEvaluatedShardId();
    } while (start != null);
    return new ShardLineage(shards, first.streamStatus(), first.tableName());
  }

  /** The stream's table, as DynamoDB Streams names it; {@code null} if it did not. */
  public String tableName() {
    return tableName;
  }

  /**
   * Whether the stream was disabled (DISABLING or DISABLED) and every listed shard is finished, by
   * {@code checkpoints}: it holds nothing the consumer has not handled, and will get nothing more. A shard
   * still open while the stream is being disabled is not finished.
   */
  public boolean ended(Map<String, Checkpoint> checkpoints) {
    boolean disabled = status == StreamStatus.DISABLING || status == StreamStatus.DISABLED;
    return disabled && shards.keySet().stream().allMatch(shardId -> finished(shardId, checkpoints));
  }

  /** The listed shards, in the order the stream gave them. */
  public List<Shard> shards() {
    return List.copyOf(shards.values());
  }

  /** Whether the stream lists {@code shardId}. */
  public boolean lists(String shardId) {
    return shards.containsKey(shardId);
  }

  /** Whether {@code shard} is closed: it has an ending sequence number and gets no new records. */
  public static boolean closed(Shard shard) {
    return shard.sequenceNumberRange() != null && shard.sequenceNumberRange().endingSequenceNumber() != null;
  }

  /**
   * The listed shards that are not finished and whose parent is finished or not listed, by
   * {@code checkpoints} (shard id to checkpoint; a shard without one is not finished).
   */
  public List<Shard> readable(Map<String, Checkpoint> checkpoints) {
    List<Shard> readable = new ArrayList<>();
    for (Shard shard : shards.values()) {
      if (!finished(shard.shardId(), checkpoints) && parentDone(shard, checkpoints)) {
        readable.add(shard);
      }
    }
    return readable;
  }

  /**
   * The checkpoints of shards the stream no longer lists although they are not finished: records of
   * them were trimmed before the consumer handled them.
   */
  public List<Checkpoint> unlistedUnfinished(Map<String, Checkpoint> checkpoints) {
    return checkpoints.values().stream().filter(c -> !c.finished() && !lists(c.shardId())).toList();
  }

  /** The checkpoints of finished shards the stream no longer lists: nothing will ask for them again. */
  public List<Checkpoint> unlistedFinished(Map<String, Checkpoint> checkpoints) {
    return checkpoints.values().stream().filter(c -> c.finished() && !lists(c.shardId())).toList();
  }

  private boolean parentDone(Shard shard, Map<String, Checkpoint> checkpoints) {
    String parent = shard.parentShardId();
    return parent == null || !shards.containsKey(parent) || finished(parent, checkpoints);
  }

  private static boolean finished(String shardId, Map<String, Checkpoint> checkpoints) {
    Checkpoint checkpoint = checkpoints.get(Objects.requireNonNull(shardId));
    return checkpoint != null && checkpoint.finished();
  }
}
