package dev.esgen.runtime.tip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An {@code @Indexed} column dropped from a tip aggregate leaves its slot attribute on the stored tip
 * (docs/index-columns.md): DynamoDB counts it in the item's size, so the size check before an append must
 * too, or an append that only just fits without it is refused by DynamoDB instead of by esgen.
 */
class DroppedIndexColumnTest {

  static final IndexColumn NAME = IndexColumn.indexed("name");

  static final class Columns implements IndexColumns<Counter> {
    @Override
    public List<IndexColumn> columns() {
      return List.of(NAME);
    }

    @Override
    public Map<String, String> values(Counter state) {
      return Map.of(NAME.name(), state.name());
    }
  }

  @Test
  void theSlotOfADroppedColumnCountsInTheTipsSize() {
    String aggregate = "dropped-" + UUID.randomUUID().toString().substring(0, 8);
    DynamoDbEventStore store = TestDynamo.store();
    // A tip that may hold a whole item's worth of events: the appended event stays in it (with the default
    // policy an event past the threshold goes to a batch item of its own, where no slot is).
    TipPolicy wholeItem = new TipPolicy(Math.toIntExact(ItemTooLargeException.LIMIT_BYTES), 0, true);
    CounterRepository before = new CounterRepository(store, CounterRepository.builder(aggregate, store.objectMapper(),
        SnapshotPolicy.every(100), LayoutKind.TIP).tipPolicy(wholeItem).indexColumns(new Columns()).build());
    CounterRepository after = new CounterRepository(store, CounterRepository.builder(aggregate, store.objectMapper(),
        SnapshotPolicy.every(100), LayoutKind.TIP).tipPolicy(wholeItem).build());
    CounterId id = CounterId.random();
    before.create(new CounterCreated(id, "n".repeat(1900)));
    Map<String, AttributeValue> tip = tip(aggregate, id);
    assertTrue(tip.containsKey(IndexKeys.slotAttribute(0)), "the column's slot is stored: " + tip.keySet());

    // Fits the tip without the old slot's 2 KB, not with it.
    ItemTooLargeException refused = assertThrows(ItemTooLargeException.class,
        () -> after.append(id, 1, List.of(new Noted("x".repeat(408_000)))));

    assertTrue(refused.sizeBytes() > ItemTooLargeException.LIMIT_BYTES, refused.getMessage());
    assertEquals(1, after.loadVersioned(id).version(), "nothing was written");
    assertEquals(tip, tip(aggregate, id));
  }

  private static Map<String, AttributeValue> tip(String aggregate, CounterId id) {
    return TestDynamo.client().getItem(b -> b
        .tableName(StoreConfig.defaults().tipTable())
        .consistentRead(true)
        .key(Map.of(TipAttributes.STREAM, AttributeValue.fromS(new TipKeys(aggregate).streamName(id.value())),
            TipAttributes.INDEX, AttributeValue.fromN(Long.toString(TipKeys.TIP_INDEX))))).item();
  }
}
