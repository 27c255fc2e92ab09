package dev.esgen.runtime.testing;

import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/** Reads a counter stream of the tip layout straight from the table, bypassing the layout under test. */
public final class TipItems {

  private TipItems() {}

  /** Every item of the counter stream {@code aid}: its batches by index, then the tip. */
  public static List<Map<String, AttributeValue>> of(String aid) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page = TestDynamo.client().query(b -> b
          .tableName("streams")
          .keyConditionExpression("p = :p")
          .expressionAttributeValues(Map.of(
              ":p", AttributeValue.fromS(new TipKeys(CounterRepository.NAME).streamName(aid))))
          .consistentRead(true)
          .exclusiveStartKey(from));
      items.addAll(page.items());
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    return items;
  }

  /** The events of all items of the stream, decoded, in stored order. */
  public static List<CounterEvent> events(CounterRepository counters, String aid) {
    List<CounterEvent> events = new ArrayList<>();
    for (Map<String, AttributeValue> item : of(aid)) {
      List<AttributeValue> bodies = item.get(TipAttributes.EVENTS).l();
      List<AttributeValue> cases = item.get(TipAttributes.CASES).l();
      for (int k = 0; k < bodies.size(); k++) {
        try {
          events.add(counters.definition().eventCodec().decode(
              cases.get(k).s(), bodies.get(k).m().get(TipAttributes.DATA).b().asByteArray()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return events;
  }

  /** How many calved batch items the stream has. */
  public static int batches(String aid) {
    return of(aid).size() - 1;
  }
}
