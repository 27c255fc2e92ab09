package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.annotations.Normalization;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@code @Unique} column added to a component of stored aggregates: values stored before may be ones
 * no reservation can hold (a key over DynamoDB's 2048 bytes). Such a value was never reserved, so an
 * append that changes it has nothing to give up and must still be able to take the new value.
 */
class UniqueValueStoredBeforeItsColumnTest {

  /** {@code label}, unique: the counter's name until it is first incremented, then {@code v{value}-{id}}. */
  static final IndexColumn LABEL = IndexColumn.unique("label", Normalization.EXACT);

  static final class Columns implements IndexColumns<Counter> {
    @Override
    public List<IndexColumn> columns() {
      return List.of(LABEL);
    }

    @Override
    public Map<String, String> values(Counter state) {
      Map<String, String> values = new HashMap<>();
      values.put(LABEL.name(), label(state));
      return values;
    }
  }

  static String label(Counter state) {
    return state.value() == 0 ? state.name() : "v" + state.value() + "-" + state.id().value();
  }

  /** Counters of type {@code aggregate} on {@code layout}, with the unique label column or (before it existed) without. */
  private static CounterRepository counters(String aggregate, LayoutKind layout, boolean uniqueLabel) {
    DynamoDbEventStore store = TestDynamo.store();
    var builder = CounterRepository.builder(aggregate, store.objectMapper(), SnapshotPolicy.every(5), layout);
    return new CounterRepository(store, (uniqueLabel ? builder.indexColumns(new Columns()) : builder).build());
  }

  private static Optional<String> holder(String aggregate, String value) {
    Map<String, AttributeValue> item = TestDynamo.client().getItem(b -> b
        .tableName(StoreConfig.defaults().snapshotTable())
        .consistentRead(true)
        .key(Map.of("pkey", AttributeValue.fromS(aggregate + "#label#" + value),
            "skey", AttributeValue.fromS("unique")))).item();
    return item == null || item.isEmpty() ? Optional.empty() : Optional.of(item.get("aid").s());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anAggregateHoldingAValueTooLongToReserveCanChangeIt(LayoutKind layout) {
    String aggregate = "labelled-" + UUID.randomUUID().toString().substring(0, 8);
    CounterRepository before = counters(aggregate, layout, false);
    CounterRepository after = counters(aggregate, layout, true);
    CounterId id = CounterId.random();
    // Stored while the component was not yet @Unique: nothing checked its length.
    before.create(new CounterCreated(id, "n".repeat(3000)));

    Counter changed = after.transact(id, c -> List.of(new Incremented(1, "a new label"))).state();

    assertEquals(1, changed.value());
    assertEquals(1, after.load(id).value(), "the append is stored");
    assertEquals(Optional.of(id.value()), holder(aggregate, label(changed)), "the new value is reserved");
    // A value no key can hold is refused as before when it is to be taken.
    assertThrows(IllegalArgumentException.class,
        () -> after.create(new CounterCreated(CounterId.random(), "n".repeat(3000))));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void reindexAllNamesTheAggregateWhoseValueNoKeyCanHold(LayoutKind layout) {
    String aggregate = "labelled-" + UUID.randomUUID().toString().substring(0, 8);
    CounterRepository before = counters(aggregate, layout, false);
    CounterRepository after = counters(aggregate, layout, true);
    CounterId tooLong = CounterId.random();
    CounterId fine = CounterId.random();
    before.create(new CounterCreated(tooLong, "n".repeat(3000)));
    before.create(new CounterCreated(fine, "fine-" + fine.value()));

    // The run stops at it, and resuming or re-running stops there again: the operator must find it.
    IllegalArgumentException stopped = assertThrows(IllegalArgumentException.class, () -> after.reindexAll());
    assertTrue(stopped.getMessage().contains(tooLong.value()), stopped.getMessage());
    assertFalse(stopped.getMessage().contains("nnnn"), "the message names the aggregate, not the value");

    // Once the aggregate's value is changed, the run completes.
    after.transact(tooLong, c -> List.of(new Incremented(1, "a new label")));
    assertEquals(2, after.reindexAll().reindexed());
    assertEquals(Optional.of(fine.value()), holder(aggregate, "fine-" + fine.value()));
  }
}
