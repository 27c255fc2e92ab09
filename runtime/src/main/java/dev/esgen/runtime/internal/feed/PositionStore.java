package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.internal.item.ConsistentBatchReader;
import dev.esgen.runtime.internal.retry.AmbiguousWriteException;
import dev.esgen.runtime.internal.retry.Failures;
import dev.esgen.runtime.internal.retry.RetryBudget;
import dev.esgen.runtime.internal.retry.RetryingDynamoDbClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
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
 * store's clock); while a transactional projection is part way through a stored event an upcaster splits,
 * also {@value #SPLIT_SEQ_NR} (N) and {@value #PARTS_TAKEN} (N). No item means no event taken yet.
 * Positions only move forward: a plain advance is conditioned on the stored position being lower, a
 * commit with read-model writes on it being exactly where the delivery read it, so that of two
 * deliveries of one event only one commits.
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

  /** The stored event after {@value #SEQ_NR} whose parts are being committed one by one (N). */
  public static final String SPLIT_SEQ_NR = "split_seq_nr";

  /** How many of the events {@value #SPLIT_SEQ_NR} stands for are committed (N). */
  public static final String PARTS_TAKEN = "parts_taken";

  /**
   * A projection's position in a stream: the last stored event it took, and how many of the events the
   * stored event {@code splitSeqNr} stands for it took already (0 and 0 when it is not part way through one).
   */
  public record Position(long seqNr, long splitSeqNr, int partsTaken) {}

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
    return readPosition(key).seqNr();
  }

  /** The whole position of {@code key}, read consistently; all 0 when there is none. */
  public Position readPosition(PositionKey key) {
    try {
      GetItemResponse response = client.getItem(b -> b.tableName(table).key(itemKey(key)).consistentRead(true));
      if (!response.hasItem() || response.item().isEmpty()) {
        return new Position(0, 0, 0);
      }
      Map<String, AttributeValue> item = response.item();
      AttributeValue split = item.get(SPLIT_SEQ_NR);
      AttributeValue parts = item.get(PARTS_TAKEN);
      return split == null || parts == null
          ? new Position(seqNr(item), 0, 0)
          : new Position(seqNr(item), Long.parseLong(split.n()), Integer.parseInt(parts.n()));
    } catch (ResourceNotFoundException e) {
      throw missing(e);
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
    // Position 0 is no item, or the item the first part of a split first event stored with its part count.
    Update update = expected == 0
        ? update(key, seqNr, "attribute_not_exists(#n) OR #n = :expected", Map.of(":expected", number(0)))
        : update(key, seqNr, "#n = :expected", Map.of(":expected", number(expected)));
    return commit(key, update, writes, stored -> stored.seqNr() >= seqNr, stored -> stored.seqNr() == expected);
  }

  /**
   * Writes {@code writes}, those of event {@code part} (from 0) of the events the stored event {@code seqNr}
   * stands for now, and counts the events up to it as taken, atomically, conditioned on the position being
   * {@code from}. Each part with writes commits on its own: two parts often write one read-model item,
   * which one transaction cannot. Committing the {@code last} part moves the position to {@code seqNr},
   * any other to {@code seqNr - 1}: the delivery took every event before it.
   *
   * @param from the position the delivery read: before {@code seqNr}, part way through it or not yet in it
   * @return true when committed (or found committed after a lost response); false when the position was
   *     no longer at {@code from}, and nothing was written
   * @throws TransactionCanceledException when DynamoDB refused one of {@code writes}
   */
  public boolean commitPart(
      PositionKey key, Position from, long seqNr, int part, boolean last, List<TransactWriteItem> writes) {
    Position before = from.splitSeqNr() == seqNr ? from : new Position(from.seqNr(), 0, 0);
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":t", AttributeValue.fromS(clock.instant().toString()));
    values.put(":sp", number(seqNr));
    StringBuilder condition = new StringBuilder();
    if (before.seqNr() == 0 && before.partsTaken() == 0) {
      condition.append("attribute_not_exists(#n)");
    } else {
      // Part way through a stored event, the item exists, holding the position it had: 0 too.
      condition.append("#n = :expected");
      values.put(":expected", number(before.seqNr()));
    }
    if (before.partsTaken() == 0) {
      condition.append(" AND attribute_not_exists(#pt)");
    } else {
      condition.append(" AND #sp = :sp AND #pt = :pt");
      values.put(":pt", number(before.partsTaken()));
    }
    String expression;
    if (last) {
      expression = "SET #n = :sp, #t = :t REMOVE #sp, #pt";
    } else {
      // The position moves to the event before: the events without writes the delivery took since
      // {@code from} are recorded with the part, so that nothing moves the position later without the
      // part count. It is written for a projection that has no item yet, too.
      expression = "SET #n = :n, #sp = :sp, #pt = :next, #t = :t";
      values.put(":n", number(seqNr - 1));
      values.put(":next", number(part + 1));
    }
    Update update = Update.builder()
        .tableName(table)
        .key(itemKey(key))
        .updateExpression(expression)
        .conditionExpression(condition.toString())
        .expressionAttributeNames(Map.of("#n", SEQ_NR, "#t", UPDATED_AT, "#sp", SPLIT_SEQ_NR, "#pt", PARTS_TAKEN))
        .expressionAttributeValues(values)
        .build();
    return commit(key, update, writes,
        stored -> stored.seqNr() >= seqNr
            || (stored.seqNr() == seqNr - 1 && stored.splitSeqNr() == seqNr && stored.partsTaken() > part),
        stored -> stored.equals(before));
  }

  /**
   * Sends {@code update} alone, or with {@code writes} in one transaction. After a lost response the
   * position read back says: {@code applied}, it was; {@code untouched}, it was not, and it is sent again.
   */
  private boolean commit(PositionKey key, Update update, List<TransactWriteItem> writes,
      Predicate<Position> applied, Predicate<Position> untouched) {
    for (int sends = 1; ; sends++) {
      try {
        if (writes.isEmpty()) {
          send(update);
        } else {
          List<TransactWriteItem> actions = new ArrayList<>(writes);
          actions.add(TransactWriteItem.builder().update(update).build());
          transact(actions);
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
        Position stored = readPosition(key);
        if (applied.test(stored)) {
          return true;
        }
        if (!untouched.test(stored)) {
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
      throw missing(e);
    }
    return deleted;
  }

  /** Sends {@code actions}, a projection's writes and the position's update, in one transaction. */
  private void transact(List<TransactWriteItem> actions) {
    try {
      client.transactWriteItems(b -> b.transactItems(actions));
    } catch (ResourceNotFoundException e) {
      // DynamoDB does not say which table of the transaction is missing.
      throw new MissingTableException(RetryingDynamoDbClient.tables(actions),
          "enableChangeFeed() (the positions table; the projection's own tables are the application's to create)",
          e);
    }
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
      throw missing(e);
    }
  }

  private Update update(PositionKey key, long seqNr, String condition, Map<String, AttributeValue> moreValues) {
    Map<String, AttributeValue> values = new HashMap<>(moreValues);
    values.put(":n", number(seqNr));
    values.put(":t", AttributeValue.fromS(clock.instant().toString()));
    return Update.builder()
        .tableName(table)
        .key(itemKey(key))
        .updateExpression("SET #n = :n, #t = :t REMOVE #sp, #pt")
        .conditionExpression(condition)
        .expressionAttributeNames(Map.of("#n", SEQ_NR, "#t", UPDATED_AT, "#sp", SPLIT_SEQ_NR, "#pt", PARTS_TAKEN))
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

  /** The positions table is the change feed's: enableChangeFeed creates it, createTablesIfMissing does not. */
  private MissingTableException missing(ResourceNotFoundException e) {
    return new MissingTableException(List.of(table), "enableChangeFeed()", e);
  }
}
