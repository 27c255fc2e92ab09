package dev.esgen.runtime.feed;

import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.history.RecordedEvent;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * A read model of counters in a DynamoDB table, as a user would write it: per counter its total and how
 * many events changed it. Every write adds, so an event applied twice shows in the totals. Notes change
 * nothing and cause no write.
 */
final class CounterTotals implements TransactionalProjection<CounterEvent> {

  private final String table;

  CounterTotals(String table) {
    this.table = table;
  }

  @Override
  public List<TransactWriteItem> writes(RecordedEvent<CounterEvent> recorded) {
    long by;
    if (recorded.event() instanceof CounterCreated) {
      by = 0;
    } else if (recorded.event() instanceof Incremented incremented) {
      by = incremented.by();
    } else {
      return List.of();
    }
    return List.of(TransactWriteItem.builder().update(u -> u
            .tableName(table)
            .key(Map.of(FeedFixture.READ_MODEL_KEY, AttributeValue.fromS(recorded.aggregateId())))
            .updateExpression("ADD #total :by, #changes :one")
            .expressionAttributeNames(Map.of("#total", "total", "#changes", "changes"))
            .expressionAttributeValues(Map.of(
                ":by", AttributeValue.fromN(Long.toString(by)), ":one", AttributeValue.fromN("1"))))
        .build());
  }

  /** The total the read model holds for counter {@code id}, or -1 when it holds none. */
  long total(String id) {
    Map<String, AttributeValue> item = FeedFixture.readModel(table, id);
    return item.isEmpty() ? -1 : Long.parseLong(item.get("total").n());
  }

  /** How many events changed counter {@code id} in the read model, or -1 when it holds none. */
  long changes(String id) {
    Map<String, AttributeValue> item = FeedFixture.readModel(table, id);
    return item.isEmpty() ? -1 : Long.parseLong(item.get("changes").n());
  }
}
