package dev.esgen.runtime.tip;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A tip whose type list does not match its events: loads and the history both call it corrupt. */
class CorruptTipHistoryTest {

  @Test
  void aTipWithFewerTypesThanEventsIsCorruptForTheHistoryAsForALoad() {
    CounterRepository counters = new CounterRepository(TestDynamo.store(), new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> c.increment("x"));
    // Drop the last type name of the tip's "c" list.
    TestDynamo.client().updateItem(b -> b.tableName("streams")
        .key(Map.of(TipAttributes.STREAM, AttributeValue.fromS(new TipKeys(CounterRepository.NAME).streamName(id.value())),
            TipAttributes.INDEX, AttributeValue.fromN(Long.toString(TipKeys.TIP_INDEX))))
        .updateExpression("REMOVE #c[1]")
        .expressionAttributeNames(Map.of("#c", TipAttributes.CASES)));

    assertThrows(CorruptStreamException.class, () -> counters.load(id));
    assertThrows(CorruptStreamException.class, () -> counters.events(id).toList());
    assertThrows(CorruptStreamException.class, () -> counters.events(id, 2).toList());
  }
}
