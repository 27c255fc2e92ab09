package dev.esgen.runtime.internal.streams;

import dev.esgen.runtime.streams.MissingCheckpointTableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * The lease that lets one poller of a consumer read at a time: an item beside the consumer's
 * checkpoints holding the owner and an expiry, taken and renewed with a conditional write that succeeds
 * only while the lease is free, expired or already the owner's.
 *
 * <p>A holder renews once less than half of the lease is left (the coordinator asks before each shard's
 * batch), so an idle poller writes about twice per lease duration. A holder that stalls longer than the
 * lease loses it to the next poller that asks; the two may then both deliver a batch, which the
 * at-least-once contract allows.
 *
 * <pre>{@code
 * ShardLease lease = new ShardLease(client, "esgen-feed", "balances", "host-a", Duration.ofSeconds(30), clock);
 * if (lease.hold()) {
 *   // read
 * }
 * lease.release();
 * }</pre>
 */
public final class ShardLease {

  static final String OWNER = "owner";
  static final String EXPIRES_AT = "expires_at";

  private final DynamoDbClient client;
  private final String table;
  private final String consumer;
  private final String owner;
  private final Duration duration;
  private final Clock clock;
  private Instant heldUntil;

  public ShardLease(DynamoDbClient client, String table, String consumer, String owner, Duration duration,
      Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(table, "table");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.duration = Objects.requireNonNull(duration, "duration");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Takes or renews the lease when needed.
   *
   * @return whether this owner holds the lease now
   */
  public boolean hold() {
    Instant now = clock.instant();
    if (heldUntil != null && now.isBefore(heldUntil.minus(duration.dividedBy(2)))) {
      return true;
    }
    Instant until = now.plus(duration);
    Map<String, AttributeValue> item = new HashMap<>(key());
    item.put(OWNER, AttributeValue.fromS(owner));
    item.put(EXPIRES_AT, AttributeValue.fromN(Long.toString(until.toEpochMilli())));
    item.put(CheckpointStore.UPDATED_AT, AttributeValue.fromS(now.toString()));
    try {
      client.putItem(b -> b
          .tableName(table)
          .item(item)
          .conditionExpression("attribute_not_exists(#pk) OR #owner = :owner OR #expires < :now")
          .expressionAttributeNames(Map.of("#pk", CheckpointStore.PKEY, "#owner", OWNER, "#expires", EXPIRES_AT))
          .expressionAttributeValues(Map.of(
              ":owner", AttributeValue.fromS(owner),
              ":now", AttributeValue.fromN(Long.toString(now.toEpochMilli())))));
      heldUntil = until;
      return true;
    } catch (ConditionalCheckFailedException heldByAnother) {
      heldUntil = null;
      return false;
    } catch (ResourceNotFoundException e) {
      throw new MissingCheckpointTableException(table, e);
    }
  }

  /** Whether the last {@link #hold()} found the lease this owner's. */
  public boolean held() {
    return heldUntil != null;
  }

  /** Gives the lease up if this owner holds it, so that another poller can take it at once. */
  public void release() {
    if (heldUntil == null) {
      return;
    }
    heldUntil = null;
    try {
      client.deleteItem(b -> b
          .tableName(table)
          .key(key())
          .conditionExpression("#owner = :owner")
          .expressionAttributeNames(Map.of("#owner", OWNER))
          .expressionAttributeValues(Map.of(":owner", AttributeValue.fromS(owner))));
    } catch (ConditionalCheckFailedException takenOver) {
      // another poller holds it since ours expired: it is not ours to delete
    }
  }

  /** The owner this lease is taken for. */
  public String owner() {
    return owner;
  }

  private Map<String, AttributeValue> key() {
    return Map.of(
        CheckpointStore.PKEY, AttributeValue.fromS(CheckpointStore.partitionKey(consumer)),
        CheckpointStore.SKEY, AttributeValue.fromS(CheckpointStore.LEASE_KEY));
  }
}
