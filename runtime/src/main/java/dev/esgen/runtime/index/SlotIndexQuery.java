package dev.esgen.runtime.index;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.MissingIndexException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
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
 * <p>How a cursor maps to the table's keys is the layout's business: the caller passes both directions.
 *
 * <pre>{@code
 * SlotIndexQuery slots = new SlotIndexQuery(client, "snapshot");
 * Page<I> page = slots.find(definition, column, "ann@example.com", request, Cursors::decode, Cursors::encode);
 * }</pre>
 */
public final class SlotIndexQuery {

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
   * @param startKey the table key a cursor of {@code page} stands for
   * @param cursor the cursor for a {@code LastEvaluatedKey}
   */
  public <I> Page<I> find(AggregateDefinition<?, I, ?> definition, IndexColumn column, String value, PageRequest page,
      Function<String, Map<String, AttributeValue>> startKey, Function<Map<String, AttributeValue>, String> cursor) {
    int slot = definition.indexColumns().slotOf(column);
    QueryResponse response = run(QueryRequest.builder()
        .tableName(table)
        .indexName(IndexKeys.slotIndexName(slot))
        .keyConditionExpression("#k = :k")
        .expressionAttributeNames(Map.of("#k", IndexKeys.slotAttribute(slot)))
        .expressionAttributeValues(Map.of(
            ":k", AttributeValue.fromS(IndexKeys.valueKey(definition.name(), column.name(), value))))
        .limit(page.size())
        .exclusiveStartKey(page.cursor().map(startKey).orElse(null))
        .build(), definition.name(), column.name());
    List<I> ids = response.items().stream().map(item -> definition.keys().parseId(item.get(IndexKeys.AID).s())).toList();
    return new Page<>(ids, next(response, cursor));
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
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(table), e);
    } catch (DynamoDbException e) {
      if (e.statusCode() == 400 && String.valueOf(e.getMessage()).contains("index")) {
        throw new MissingIndexException(table, request.indexName(), aggregateName, column, e);
      }
      throw e;
    }
  }

  /** The cursor of the page after {@code response}, if the query has more. */
  public static Optional<String> next(QueryResponse response, Function<Map<String, AttributeValue>, String> cursor) {
    return response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
        ? Optional.of(cursor.apply(response.lastEvaluatedKey()))
        : Optional.empty();
  }
}
