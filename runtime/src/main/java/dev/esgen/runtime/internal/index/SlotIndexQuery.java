package dev.esgen.runtime.internal.index;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.InvalidCursorException;
import dev.esgen.runtime.error.MissingIndexException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.query.Cursors;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Queries of one table's global secondary indexes, the index slots' ({@code ix{i}_pk}) above all: one page
 * of the ids whose slot holds a value, with the page's cursor, and the error mapping every such query
 * shares (a missing table or a missing index becomes esgen's error naming it).
 *
 * <p>The indexes queried here (the slots, the tip layout's listing index) have {@code aid} as their range
 * key and list one item per aggregate, so a cursor keeps only the last aid read: the start key is rebuilt
 * from it, the query's own hash key and the layout's key of the item holding that aid. A cursor thus
 * never brings DynamoDB an attribute it did not expect, and holds no indexed value.
 *
 * <pre>{@code
 * SlotIndexQuery slots = new SlotIndexQuery(client, "snapshot");
 * Page<I> page = slots.find(definition, column, "ann@example.com", request, aid -> headRowKey(aid));
 * }</pre>
 */
public final class SlotIndexQuery {

  /** DynamoDB's limit on a range key value, which {@code aid} is in these indexes. */
  public static final int RANGE_KEY_LIMIT_BYTES = 1024;

  private final DynamoDbClient client;
  private final String table;

  public SlotIndexQuery(DynamoDbClient client, String table) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(table, "table");
  }

  /**
   * One page of the ids of {@code definition}'s aggregates whose slot for {@code column} holds
   * {@code value}, in index order.
   *
   * @param itemKey the table key of the item that carries the slot for an aid (head row, tip)
   * @throws InvalidCursorException when the page's cursor is not one of this listing
   */
  public <I> Page<I> find(AggregateDefinition<?, I, ?> definition, IndexColumn column, String value, PageRequest page,
      Function<String, Map<String, AttributeValue>> itemKey) {
    SlotPage<I> slotPage = page(table, definition, column, value, page, itemKey);
    return slotPage.ids(run(slotPage.request(), definition.name(), column.name()));
  }

  /**
   * The query of one page of {@link #find} on {@code table}, not yet sent, and how its response becomes the page.
   *
   * @throws InvalidCursorException when the page's cursor is not one of this listing
   */
  public static <I> SlotPage<I> page(String table, AggregateDefinition<?, I, ?> definition, IndexColumn column,
      String value, PageRequest page, Function<String, Map<String, AttributeValue>> itemKey) {
    int slot = definition.indexColumns().slotOf(column);
    String slotAttribute = IndexKeys.slotAttribute(slot);
    AttributeValue valueKey = AttributeValue.fromS(IndexKeys.valueKey(definition.name(), column.name(), value));
    Cursors cursors = Cursors.listBy(definition.name(), column.name(), value);
    Map<String, AttributeValue> start = page.cursor()
        .map(cursor -> cursors.decode(cursor, position -> aid(position).map(aid -> {
          Map<String, AttributeValue> key = new HashMap<>(itemKey.apply(aid));
          key.put(slotAttribute, valueKey);
          key.put(IndexKeys.AID, AttributeValue.fromS(aid));
          return key;
        })))
        .orElse(null);
    QueryRequest request = QueryRequest.builder()
        .tableName(table)
        .indexName(IndexKeys.slotIndexName(slot))
        .keyConditionExpression("#k = :k")
        .expressionAttributeNames(Map.of("#k", slotAttribute))
        .expressionAttributeValues(Map.of(":k", valueKey))
        .limit(page.size())
        .exclusiveStartKey(start)
        .build();
    return new SlotPage<>(definition, request, cursors);
  }

  /**
   * One page's query of an index slot and what its response means.
   *
   * @param request the query to send
   */
  public record SlotPage<I>(AggregateDefinition<?, I, ?> definition, QueryRequest request, Cursors cursors) {

    /** The page of ids {@code response} holds, with the cursor of the next one. */
    public Page<I> ids(QueryResponse response) {
      List<I> ids = response.items().stream().map(item -> definition.keys().parseId(item.get(IndexKeys.AID).s())).toList();
      return new Page<>(ids, hasMore(response)
          ? Optional.of(cursors.encode(position(response.lastEvaluatedKey())))
          : Optional.empty());
    }
  }

  /**
   * Runs {@code request}, a query of one of this table's global secondary indexes on behalf of
   * {@code aggregateName}'s {@code column} (or operation).
   *
   * @throws MissingTableException when the table does not exist
   * @throws MissingIndexException when DynamoDB rejects the query over its index
   */
  public QueryResponse run(QueryRequest request, String aggregateName, String column) {
    try {
      return client.query(request);
    } catch (DynamoDbException e) {
      throw failure(e, table, request, aggregateName, column);
    }
  }

  /** The exception for {@code failure} of {@code request} (as {@link #run} throws it), the failure itself if none. */
  public static RuntimeException failure(
      RuntimeException failure, String table, QueryRequest request, String aggregateName, String column) {
    if (failure instanceof ResourceNotFoundException missing) {
      return new MissingTableException(List.of(table), missing);
    }
    if (failure instanceof DynamoDbException e && e.statusCode() == 400
        && String.valueOf(e.getMessage()).contains("index")) {
      return new MissingIndexException(table, request.indexName(), aggregateName, column, e);
    }
    return failure;
  }

  /** Whether the query that answered {@code response} has more items after it. */
  public static boolean hasMore(QueryResponse response) {
    return response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty();
  }

  /** What a cursor keeps of the last key an index with range key {@code aid} evaluated: the aid. */
  public static Map<String, AttributeValue> position(Map<String, AttributeValue> lastEvaluatedKey) {
    return Map.of(IndexKeys.AID, lastEvaluatedKey.get(IndexKeys.AID));
  }

  /**
   * The aid of a cursor's {@link #position}, if it is one: the position holds nothing else, and the aid
   * is a range key value DynamoDB accepts (1 to {@value #RANGE_KEY_LIMIT_BYTES} bytes).
   */
  public static Optional<String> aid(Map<String, AttributeValue> position) {
    AttributeValue aid = position.get(IndexKeys.AID);
    return position.size() == 1 && aid != null && isRangeKey(aid.s()) ? Optional.of(aid.s()) : Optional.empty();
  }

  /** Whether DynamoDB accepts {@code value} as a range key: 1 to {@value #RANGE_KEY_LIMIT_BYTES} bytes. */
  public static boolean isRangeKey(String value) {
    return !value.isEmpty() && value.getBytes(StandardCharsets.UTF_8).length <= RANGE_KEY_LIMIT_BYTES;
  }
}
