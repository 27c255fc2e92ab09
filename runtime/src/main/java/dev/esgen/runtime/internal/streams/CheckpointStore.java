package dev.esgen.runtime.internal.streams;

import dev.esgen.runtime.streams.MissingCheckpointTableException;
import dev.esgen.runtime.streams.StartPosition;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;

/**
 * The checkpoint items of one consumer: one per shard it has read, and a start item written once, when
 * the consumer first read the stream. All share the partition key {@code checkpoint#{consumer}}, so one
 * consistent Query loads them, and the table can be shared with other items keyed {@code pkey}/{@code skey}.
 *
 * <pre>{@code
 * CheckpointStore store = new CheckpointStore(client, "esgen-feed", "balances", Clock.systemUTC());
 * CheckpointStore.ConsumerState state = store.load();
 * store.save(checkpoint.after(lastSequenceNumber, false), streamArn);
 * }</pre>
 */
public final class CheckpointStore {

  /** The hash key, as in esgen's other tables. */
  public static final String PKEY = "pkey";
  /** The range key, as in esgen's other tables. */
  public static final String SKEY = "skey";
  /** The partition key's prefix, before the consumer name. */
  public static final String PARTITION_PREFIX = "checkpoint#";
  /** The sort key's prefix of a shard's checkpoint, before the shard id. */
  public static final String SHARD_PREFIX = "shard#";
  /** The sort key of the item saying where the consumer started. */
  public static final String START_KEY = "start";
  /** The sort key of the consumer's lease. */
  public static final String LEASE_KEY = "lease";

  static final String STREAM_ARN = "stream_arn";
  static final String SEQUENCE_NUMBER = "sequence_number";
  static final String START_AT = "start_at";
  static final String FINISHED = "finished";
  static final String START_POSITION = "start_position";
  static final String UPDATED_AT = "updated_at";

  private final DynamoDbClient client;
  private final String table;
  private final String consumer;
  private final Clock clock;

  public CheckpointStore(DynamoDbClient client, String table, String consumer, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(table, "table");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * What a consumer has stored: its checkpoints by shard id, and where it started if it has.
   *
   * @param streamArn the stream the consumer reads, as its start item records it; empty without a start item,
   *     or for a start item that names none
   */
  public record ConsumerState(Map<String, Checkpoint> checkpoints, Optional<StartPosition> started,
      Optional<String> streamArn) {}

  /** The partition key of {@code consumer}'s items. */
  public static String partitionKey(String consumer) {
    return PARTITION_PREFIX + consumer;
  }

  /** Reads every item of the consumer, consistently. */
  public ConsumerState load() {
    Map<String, Checkpoint> checkpoints = new HashMap<>();
    StartPosition started = null;
    String streamArn = null;
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page = call(() -> client.query(b -> b
          .tableName(table)
          .keyConditionExpression("#pk = :pk")
          .expressionAttributeNames(Map.of("#pk", PKEY))
          .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partitionKey(consumer))))
          .consistentRead(true)
          .exclusiveStartKey(from)));
      for (Map<String, AttributeValue> item : page.items()) {
        String sortKey = item.get(SKEY).s();
        if (sortKey.startsWith(SHARD_PREFIX)) {
          Checkpoint checkpoint = checkpoint(sortKey.substring(SHARD_PREFIX.length()), item);
          checkpoints.put(checkpoint.shardId(), checkpoint);
        } else if (sortKey.equals(START_KEY)) {
          started = StartPosition.valueOf(item.get(START_POSITION).s());
          AttributeValue recorded = item.get(STREAM_ARN);
          streamArn = recorded == null ? null : recorded.s();
        }
      }
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    return new ConsumerState(checkpoints, Optional.ofNullable(started), Optional.ofNullable(streamArn));
  }

  /**
   * Stores {@code checkpoint} unless the stored one is finished already: a finished shard stays finished,
   * whoever writes after.
   *
   * @return false when the stored checkpoint was finished, and nothing was written; true also when the
   *     stored one is {@code checkpoint} itself, finished by an earlier attempt of this save whose answer
   *     was lost before the SDK sent it again
   */
  public boolean save(Checkpoint checkpoint, String streamArn) {
    Map<String, AttributeValue> item = item(checkpoint, streamArn);
    try {
      call(() -> client.putItem(b -> b
          .tableName(table)
          .item(item)
          .conditionExpression("attribute_not_exists(#finished) OR #finished = :false")
          .expressionAttributeNames(Map.of("#finished", FINISHED))
          .expressionAttributeValues(Map.of(":false", AttributeValue.fromBool(false)))
          .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
      return true;
    } catch (ConditionalCheckFailedException finishedAlready) {
      return checkpoint.finished() && finishedAlready.hasItem()
          && Objects.equals(item.get(SEQUENCE_NUMBER), finishedAlready.item().get(SEQUENCE_NUMBER))
          && Objects.equals(item.get(STREAM_ARN), finishedAlready.item().get(STREAM_ARN));
    }
  }

  /**
   * Stores {@code checkpoint}, where the consumer starts reading a shard, unless the shard has a checkpoint
   * already: another poller of the consumer may have started it and handed records over since this one
   * read the checkpoints, and a start written over that checkpoint would skip them.
   *
   * @return false when another checkpoint was stored already, and nothing was written; true also when the
   *     stored one is this same start (written by an earlier attempt of this save whose answer was lost,
   *     or by another poller starting at the same time)
   */
  public boolean saveStart(Checkpoint checkpoint, String streamArn) {
    Map<String, AttributeValue> item = item(checkpoint, streamArn);
    try {
      call(() -> client.putItem(b -> b
          .tableName(table)
          .item(item)
          .conditionExpression("attribute_not_exists(#pk)")
          .expressionAttributeNames(Map.of("#pk", PKEY))
          .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
      return true;
    } catch (ConditionalCheckFailedException storedAlready) {
      Map<String, AttributeValue> stored = storedAlready.hasItem() ? storedAlready.item() : Map.of();
      return !stored.containsKey(SEQUENCE_NUMBER) && Stream.of(STREAM_ARN, START_AT, FINISHED)
          .allMatch(name -> Objects.equals(item.get(name), stored.get(name)));
    }
  }

  private Map<String, AttributeValue> item(Checkpoint checkpoint, String streamArn) {
    Map<String, AttributeValue> item = new HashMap<>(key(SHARD_PREFIX + checkpoint.shardId()));
    item.put(STREAM_ARN, AttributeValue.fromS(streamArn));
    if (checkpoint.hasSequenceNumber()) {
      item.put(SEQUENCE_NUMBER, AttributeValue.fromS(checkpoint.sequenceNumber()));
    }
    item.put(START_AT, AttributeValue.fromS(checkpoint.startAt().toString()));
    item.put(FINISHED, AttributeValue.fromBool(checkpoint.finished()));
    item.put(UPDATED_AT, AttributeValue.fromS(clock.instant().toString()));
    return item;
  }

  /**
   * Records that the consumer has started reading {@code streamArn} at {@code position}. The stream is the
   * one the consumer's checkpoints belong to: a poller given another stream refuses to read it.
   */
  public void markStarted(StartPosition position, String streamArn) {
    Map<String, AttributeValue> item = new HashMap<>(key(START_KEY));
    item.put(START_POSITION, AttributeValue.fromS(position.name()));
    item.put(STREAM_ARN, AttributeValue.fromS(streamArn));
    item.put(UPDATED_AT, AttributeValue.fromS(clock.instant().toString()));
    call(() -> client.putItem(b -> b.tableName(table).item(item)));
  }

  /** Deletes the checkpoint of a shard the stream no longer lists. */
  public void delete(String shardId) {
    call(() -> client.deleteItem(b -> b.tableName(table).key(key(SHARD_PREFIX + shardId))));
  }

  /** The key of the consumer's item with sort key {@code sortKey}. */
  Map<String, AttributeValue> key(String sortKey) {
    return Map.of(PKEY, AttributeValue.fromS(partitionKey(consumer)), SKEY, AttributeValue.fromS(sortKey));
  }

  /** The table, for messages. */
  public String table() {
    return table;
  }

  private static Checkpoint checkpoint(String shardId, Map<String, AttributeValue> item) {
    AttributeValue sequenceNumber = item.get(SEQUENCE_NUMBER);
    AttributeValue finished = item.get(FINISHED);
    return new Checkpoint(shardId,
        sequenceNumber == null ? null : sequenceNumber.s(),
        ShardIteratorType.fromValue(item.get(START_AT).s()),
        finished != null && Boolean.TRUE.equals(finished.bool()));
  }

  private <T> T call(Supplier<T> request) {
    try {
      return request.get();
    } catch (ResourceNotFoundException e) {
      throw new MissingCheckpointTableException(table, e);
    }
  }
}
