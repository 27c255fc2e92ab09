package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.internal.item.ConsistentBatchReader;
import dev.esgen.runtime.internal.retry.AmbiguousWriteException;
import dev.esgen.runtime.internal.retry.Failures;
import dev.esgen.runtime.internal.retry.RetryBudget;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The positions table: for each projection and stream, the seq_nr of the last event the projection took.
 *
 * <p>Item: {@value #PROJECTION} (S, hash key), {@value #STREAM} (S, range key,
 * {@code {aggregate-name}#{aid}}), {@value #SEQ_NR} (N) and {@value #UPDATED_AT} (S, ISO-8601 from the
 * store's clock). No item means no event taken yet. Positions only move forward: a plain advance is
 * conditioned on the stored position being lower, a commit with read-model writes on it being exactly
 * where the delivery read it, so that of two deliveries of one event only one commits.
 *
 * <pre>{@code
 * PositionStore positions = new PositionStore(client, "positions", Clock.systemUTC(), recorder::currentBudget);
 * long at = positions.read(key);
 * positions.advance(key, at + 3);
 * }</pre>
 */
public final class PositionStore {

  /** Hash key (S): the projection's name. */
  public static final String PROJECTION = "projection";

  /** Range key (S): the stream, {@code {aggregate-name}#{aid}}. */
  public static final String STREAM = "stream";

  /** The seq_nr of the last event the projection took in the stream (N). */
  public static final String SEQ_NR = "seq_nr";

  /** When the position last moved, ISO-8601 from the store's clock (S). */
  public static final String UPDATED_AT = "updated_at";

  /** A lost response is settled by reading back; this many sends of one commit are made at most. */
  private static final int SENDS = 3;

  private final DynamoDbClient client;
  private final String table;
  private final Clock clock;
  private final ConsistentBatchReader reader;

  /** @param budget the retry budget of the operation running on the calling thread */
  public PositionStore(DynamoDbClient client, String table, Clock clock, Supplier<RetryBudget> budget) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(table, "table");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.reader = new ConsistentBatchReader(client, table, budget);
  }

  /** The table's name. */
  public String table() {
    return table;
  }

  /** The positions of {@code keys}, read consistently in batches of 100; 0 for each key without one. */
  public Map<PositionKey, Long> read(Collection<PositionKey> keys) {
    Map<PositionKey, Long> positions = new HashMap<>();
    List<Map<String, AttributeValue>> itemKeys = new ArrayList<>();
    for (PositionKey key : keys) {
      positions.put(key, 0L);
      itemKeys.add(itemKey(key));
    }
    for (Map<String, AttributeValue> item : reader.read(itemKeys)) {
      positions.put(new PositionKey(item.get(PROJECTION).s(), item.get(STREAM).s()), seqNr(item));
    }
    return positions;
  }

  /** The position of {@code key}, read consistently; 0 when the projection took no event of the stream yet. */
  public long read(PositionKey key) {
    try {
      GetItemResponse response = client.getItem(b -> b.tableName(table).key(itemKey(key)).consistentRead(true));
      return response.hasItem() && !response.item().isEmpty() ? seqNr(response.item()) : 0;
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(table), e);
    }
  }

  /**
   * Moves the position of {@code key} to {@code seqNr} unless it is there or further already. Sending
   * it twice does no harm, so a response that was lost is answered by sending it again.
   */
  public void advance(PositionKey key, long seqNr) {
    Update update = update(key, seqNr, "attribute_not_exists(#n) OR #n < :n", Map.of());
    try {
      try {
        send(update);
      } catch (AmbiguousWriteException e) {
        send(update);
      }
    } catch (ConditionalCheckFailedException e) {
      // The position is there or further already: another delivery, or this one's first send, moved it.
    }
  }

  /**
   * Writes {@code writes} and moves the position of {@code key} from {@code expected} to {@code seqNr},
   * atomically: one {@code TransactWriteItems}, or one {@code UpdateItem} when there are no writes.
   *
   * @return true when committed (or found committed after a lost response); false when the position was
   *     no longer at {@code expected}, and nothing was written
   * @throws TransactionCanceledException when DynamoDB refused one of {@code writes}
   */
  public boolean commit(PositionKey key, long expected, long seqNr, List<TransactWriteItem> writes) {
    Update update = expected == 0
        ? update(key, seqNr, "attribute_not_exists(#n)", Map.of())
        : update(key, seqNr, "#n = :expected", Map.of(":expected", number(expected)));
    for (int sends = 1; ; sends++) {
      try {
        if (writes.isEmpty()) {
          send(update);
        } else {
          List<TransactWriteItem> actions = new ArrayList<>(writes);
          actions.add(TransactWriteItem.builder().update(update).build());
          client.transactWriteItems(b -> b.transactItems(actions));
        }
        return true;
      } catch (ConditionalCheckFailedException e) {
        return false;
      } catch (TransactionCanceledException e) {
        List<CancellationReason> reasons = Failures.reasons(e);
        if (reasons.size() == writes.size() + 1
            && "ConditionalCheckFailed".equals(reasons.get(writes.size()).code())) {
          return false;
        }
        throw e;
      } catch (AmbiguousWriteException e) {
        // The commit may have been applied: the position says. Still where it was means it was not, and
        // sending it again is safe, as it is conditioned on that position.
        long stored = read(key);
        if (stored >= seqNr) {
          return true;
        }
        if (stored != expected) {
          return false;
        }
        if (sends == SENDS) {
          throw e;
        }
      }
    }
  }

  /** Deletes every position of {@code projection}; returns how many there were. */
  public long deleteAll(String projection) {
    QueryRequest.Builder query = QueryRequest.builder()
        .tableName(table)
        .keyConditionExpression("#p = :p")
        .projectionExpression("#p, #s")
        .expressionAttributeNames(Map.of("#p", PROJECTION, "#s", STREAM))
        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(projection)))
        .consistentRead(true);
    long deleted = 0;
    Map<String, AttributeValue> start = null;
    try {
      do {
        QueryResponse page = client.query(query.exclusiveStartKey(start).build());
        for (Map<String, AttributeValue> item : page.items()) {
          client.deleteItem(b -> b
              .tableName(table)
              .key(Map.of(PROJECTION, item.get(PROJECTION), STREAM, item.get(STREAM))));
          deleted++;
        }
        start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
      } while (start != null);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(table), e);
    }
    return deleted;
  }

  private void send(Update update) {
    try {
      client.updateItem(b -> b
          .tableName(update.tableName())
          .key(update.key())
          .updateExpression(update.updateExpression())
          .conditionExpression(update.conditionExpression())
          .expressionAttributeNames(update.expressionAttributeNames())
          .expressionAttributeValues(update.expressionAttributeValues()));
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(table), e);
    }
  }

  private Update update(PositionKey key, long seqNr, String condition, Map<String, AttributeValue> moreValues) {
    Map<String, AttributeValue> values = new HashMap<>(moreValues);
    values.put(":n", number(seqNr));
    values.put(":t", AttributeValue.fromS(clock.instant().toString()));
    return Update.builder()
        .tableName(table)
        .key(itemKey(key))
        .updateExpression("SET #n = :n, #t = :t")
        .conditionExpression(condition)
        .expressionAttributeNames(Map.of("#n", SEQ_NR, "#t", UPDATED_AT))
        .expressionAttributeValues(values)
        .build();
  }

  private static Map<String, AttributeValue> itemKey(PositionKey key) {
    return Map.of(PROJECTION, AttributeValue.fromS(key.projection()), STREAM, AttributeValue.fromS(key.stream()));
  }

  private static long seqNr(Map<String, AttributeValue> item) {
    return Long.parseLong(item.get(SEQ_NR).n());
  }

  private static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
