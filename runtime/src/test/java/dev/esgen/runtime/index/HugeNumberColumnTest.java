package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A {@code @Unique} number column whose values have plain forms longer than any key (10^5000 and up):
 * stored in their short scientific form, so the aggregate can be created, can change the value (giving
 * up the old reservation) and is found under it, as with any other number.
 */
class HugeNumberColumnTest {

  /** {@code magnitude}, unique: 10^(5000 + value). */
  static final IndexColumn MAGNITUDE = IndexColumn.unique("magnitude", Normalization.EXACT);

  /** The column, holding {@code magnitude} of the counter's value. */
  record Columns(LongFunction<BigDecimal> magnitude) implements IndexColumns<Counter> {
    @Override
    public List<IndexColumn> columns() {
      return List.of(MAGNITUDE);
    }

    @Override
    public Map<String, String> values(Counter state) {
      return Map.of(MAGNITUDE.name(), IndexValues.of(magnitude.apply(state.value())));
    }
  }

  private static Optional<String> holder(String aggregate, String value) {
    Map<String, AttributeValue> item = TestDynamo.client().getItem(b -> b
        .tableName(StoreConfig.defaults().snapshotTable())
        .consistentRead(true)
        .key(Map.of("pkey", AttributeValue.fromS(aggregate + "#magnitude#" + value),
            "skey", AttributeValue.fromS("unique")))).item();
    return item == null || item.isEmpty() ? Optional.empty() : Optional.of(item.get("aid").s());
  }

  private static CounterRepository counters(String aggregate, LayoutKind layout, LongFunction<BigDecimal> magnitude) {
    DynamoDbEventStore store = TestDynamo.store();
    return new CounterRepository(store,
        CounterRepository.builder(aggregate, store.objectMapper(), SnapshotPolicy.every(5), layout)
            .indexColumns(new Columns(magnitude)).build());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anAggregateHoldingANumberTooLongToWritePlainlyIsStoredChangedAndReserved(LayoutKind layout) {
    String aggregate = "magnitudes-" + UUID.randomUUID().toString().substring(0, 8);
    CounterRepository counters =
        counters(aggregate, layout, value -> BigDecimal.ONE.scaleByPowerOfTen(5000 + (int) value));
    CounterId id = CounterId.random();

    counters.create(new CounterCreated(id, "big"));
    assertEquals(Optional.of(id.value()), holder(aggregate, "1E+5000"));

    counters.transact(id, c -> List.of(new Incremented(1, "bigger")));
    assertEquals(1, counters.load(id).value(), "the append is stored");
    assertEquals(Optional.of(id.value()), holder(aggregate, "1E+5001"), "the new value is reserved");
    assertEquals(Optional.empty(), holder(aggregate, "1E+5000"), "the old one is given up");
  }

  /**
   * 100 × 10^2147483647 (unscaled 100, scale -2147483647), whose scale with its trailing zeros stripped
   * would be below an int's range, is stored and given up like any other number, and changed to 10 times
   * less, whose stripped scale is just within it.
   */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aNumberWhoseStrippedScaleIsBeyondAnIntIsStoredChangedAndReserved(LayoutKind layout) {
    String aggregate = "magnitudes-" + UUID.randomUUID().toString().substring(0, 8);
    CounterRepository counters = counters(aggregate, layout,
        value -> BigDecimal.valueOf(100, (int) value - Integer.MAX_VALUE));
    CounterId id = CounterId.random();

    counters.create(new CounterCreated(id, "beyond"));
    assertEquals(Optional.of(id.value()), holder(aggregate, "1E+2147483649"));

    counters.transact(id, c -> List.of(new Incremented(1, "within")));
    assertEquals(Optional.of(id.value()), holder(aggregate, "1E+2147483648"), "the new value is reserved");
    assertEquals(Optional.empty(), holder(aggregate, "1E+2147483649"), "the old one is given up");
  }
}
