package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Number columns holding numbers of more digits than any key holds (here 100,000, and no test may wait for
 * them to be written: {@link UnwritableNumber}). An append setting one is refused as one setting a value
 * just too long for its key is, with the same exception and message, before anything is written.
 */
class NumberTooLongForAKeyTest {

  /** {@code amount}, a unique BigInteger. */
  static final IndexColumn AMOUNT = IndexColumn.unique("amount", Normalization.EXACT);

  /** {@code ratio}, an indexed BigDecimal. */
  static final IndexColumn RATIO = IndexColumn.indexed("ratio");

  /** 7 × 10^99,999 + 1: 100,000 digits, none of them trailing zeros. */
  static final BigInteger HUGE = BigInteger.TEN.pow(99_999).multiply(BigInteger.valueOf(7)).add(BigInteger.ONE);

  /** The columns, holding {@code amount} and {@code ratio} of the counter's value. */
  record Columns(LongFunction<BigInteger> amount, LongFunction<BigDecimal> ratio) implements IndexColumns<Counter> {
    @Override
    public List<IndexColumn> columns() {
      return List.of(AMOUNT, RATIO);
    }

    @Override
    public Map<String, String> values(Counter state) {
      return Map.of(AMOUNT.name(), IndexValues.of(amount.apply(state.value())),
          RATIO.name(), IndexValues.of(ratio.apply(state.value())));
    }
  }

  private static CounterRepository counters(String aggregate, LayoutKind layout, Columns columns) {
    DynamoDbEventStore store = TestDynamo.store();
    var builder = CounterRepository.builder(aggregate, store.objectMapper(), SnapshotPolicy.every(5), layout);
    return new CounterRepository(store, (columns == null ? builder : builder.indexColumns(columns)).build());
  }

  /** What an append says of a value whose key would be {@code bytes} long. */
  private static String tooLong(String aggregate, IndexColumn column, long bytes) {
    return aggregate + " " + column.name() + ": a value of " + bytes + " bytes with its prefix exceeds DynamoDB's key"
        + " limit of " + IndexKeys.KEY_LIMIT_BYTES + " bytes";
  }

  private static long prefix(String aggregate, IndexColumn column) {
    return IndexKeys.valueKey(aggregate, column.name(), "").length();
  }

  /** Every item of {@code aggregate}'s streams, reservations and index entries, in any table. */
  private static List<Map<String, AttributeValue>> itemsOf(String aggregate) {
    StoreConfig config = StoreConfig.defaults();
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    items.addAll(IndexAudit.scan(config.snapshotTable(), "pkey", aggregate));
    items.addAll(IndexAudit.scan(config.journalTable(), "pkey", aggregate));
    items.addAll(IndexAudit.scan(config.tipTable(), TipAttributes.STREAM, aggregate));
    return items;
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aCreateSettingANumberTooLongForAnyKeyIsRefusedAsAValueJustTooLongIsAndWritesNothing(LayoutKind layout) {
    String aggregate = "amounts-" + UUID.randomUUID().toString().substring(0, 8);
    // Short enough to be written, one digit too long for the key with its prefix.
    BigInteger justTooLong = new BigInteger("7".repeat((int) (IndexKeys.KEY_LIMIT_BYTES - prefix(aggregate, AMOUNT) + 1)));
    CounterRepository normal = counters(aggregate, layout, new Columns(v -> justTooLong, v -> BigDecimal.ONE));
    CounterRepository hugeAmount =
        counters(aggregate, layout, new Columns(v -> UnwritableNumber.of(HUGE), v -> BigDecimal.ONE));
    CounterRepository hugeRatio = counters(aggregate, layout,
        new Columns(v -> BigInteger.ONE, v -> new BigDecimal(UnwritableNumber.of(HUGE), 2)));

    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> normal.create(new CounterCreated(CounterId.random(), "normal")));
    IllegalArgumentException amount = assertThrows(IllegalArgumentException.class,
        () -> hugeAmount.create(new CounterCreated(CounterId.random(), "amount")));
    IllegalArgumentException ratio = assertThrows(IllegalArgumentException.class,
        () -> hugeRatio.create(new CounterCreated(CounterId.random(), "ratio")));

    assertEquals(tooLong(aggregate, AMOUNT, IndexKeys.KEY_LIMIT_BYTES + 1), refused.getMessage());
    assertEquals(tooLong(aggregate, AMOUNT, prefix(aggregate, AMOUNT) + 100_000), amount.getMessage());
    // 7000...0.01, the plain form BigDecimal.toString gives it: 100,000 digits and the point.
    assertEquals(tooLong(aggregate, RATIO, prefix(aggregate, RATIO) + 100_001), ratio.getMessage());
    assertEquals(List.of(), itemsOf(aggregate), "no stream, reservation or index entry");
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anAggregateHoldingSuchANumberFromBeforeItsColumnKeepsItButCannotTakeAnother(LayoutKind layout) {
    String aggregate = "amounts-" + UUID.randomUUID().toString().substring(0, 8);
    BigInteger other = HUGE.add(BigInteger.TWO);   // as many digits
    CounterRepository before = counters(aggregate, layout, null);
    CounterRepository after = counters(aggregate, layout,
        new Columns(v -> UnwritableNumber.of(v < 2 ? HUGE : other), BigDecimal::valueOf));
    CounterId id = CounterId.random();
    before.create(new CounterCreated(id, "held"));

    after.transact(id, c -> List.of(new Incremented(1, "the amount stays")));
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> after.transact(id, c -> List.of(new Incremented(1, "another amount"))));

    assertEquals(1, after.load(id).value(), "the first append is stored, the second is not");
    assertEquals(tooLong(aggregate, AMOUNT, prefix(aggregate, AMOUNT) + 100_000), refused.getMessage());
  }
}
