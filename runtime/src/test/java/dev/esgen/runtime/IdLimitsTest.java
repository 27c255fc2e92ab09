package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.AggregateIds;
import dev.esgen.runtime.aggregate.AggregateKeys;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.error.InvalidIdException;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Ids no DynamoDB key can hold are refused before any request; an id exactly at the limit is stored and
 * read back, and one byte more is refused by DynamoDB itself when nothing checks it first: the limit is
 * the one DynamoDB enforces.
 */
class IdLimitsTest {

  private static final List<String> TABLES = List.of("journal", "snapshot", "streams");

  private final DynamoDbEventStore store = TestDynamo.store();

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anEmptyIdIsRefusedBeforeAnyRequest(LayoutKind layout) {
    CounterRepository counters = counters(layout);
    int limit = AggregateIds.maxBytes(CounterRepository.NAME, layout);
    CounterId empty = new CounterId("");

    for (InvalidIdException e : refusedWithoutARequest(counters, empty)) {
      assertEquals(CounterRepository.NAME, e.aggregateName());
      assertEquals(0, e.sizeBytes());
      assertEquals(limit, e.limitBytes());
      assertTrue(e.getMessage().startsWith("counter id is empty"), e.getMessage());
    }
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anIdWithHalfASurrogatePairIsRefusedBeforeAnyRequest(LayoutKind layout) {
    CounterRepository counters = counters(layout);
    // Java's UTF-8 encoder writes '?' for a lone half: stored, both ids would name the stream of "acc-?".
    CounterId unpaired = new CounterId("acc-" + (char) 0xD800);

    for (InvalidIdException e : refusedWithoutARequest(counters, unpaired)) {
      assertEquals(-1, e.sizeBytes());
      assertEquals("acc-", e.idPrefix());
      assertTrue(e.getMessage().contains("char 4 is half of a surrogate pair"), e.getMessage());
    }
    CounterId pair = new CounterId("acc-" + Character.toString(0x1F600) + "-" + UUID.randomUUID());
    counters.create(new CounterCreated(pair, "a whole pair is stored"));
    assertEquals("a whole pair is stored", counters.load(pair).name());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anIdOverTheLimitIsRefusedBeforeAnyRequest(LayoutKind layout) {
    CounterRepository counters = counters(layout);
    int limit = AggregateIds.maxBytes(CounterRepository.NAME, layout);
    CounterId tooLong = fresh(limit + 1);

    for (InvalidIdException e : refusedWithoutARequest(counters, tooLong)) {
      assertEquals(limit + 1, e.sizeBytes());
      assertEquals(limit, e.limitBytes());
      assertTrue(e.getMessage().contains(String.format(Locale.ROOT, "over the limit of %,d bytes", limit)), e.getMessage());
      assertFalse(e.getMessage().contains(tooLong.value()), "quotes a prefix only");
    }
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anIdExactlyAtTheLimitIsStoredAndLoaded(LayoutKind layout) {
    CounterRepository counters = counters(layout);
    CounterId id = fresh(AggregateIds.maxBytes(CounterRepository.NAME, layout));

    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, new Incremented(2));

    assertEquals(new Counter(id, "c", 2, 0, ""), counters.load(id));
    assertEquals(Map.of(id, new Counter(id, "c", 2, 0, "")), counters.findAll(List.of(id)));
  }

  /** The indexed counter's id is also the range key of its slot indexes (and on the tip of the listing). */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anIdExactlyAtTheLimitIsFoundThroughTheIndexes(LayoutKind layout) {
    IndexedCounterRepository counters = new IndexedCounterRepository(store, layout, 0);
    CounterId id = fresh(AggregateIds.maxBytes(IndexedCounterRepository.NAME, layout));
    String name = "at-the-limit-" + UUID.randomUUID();

    counters.create(new CounterCreated(id, name));

    assertEquals(id, counters.loadByName(name).id());
    assertEquals(List.of(id), counters.listByName(name, PageRequest.first(10)).items().stream()
        .map(Counter::id).toList());
  }

  /** Keys that do not check: one byte over the limit then reaches DynamoDB, which refuses it. */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void oneByteOverTheLimitIsRefusedByDynamoDbItself(LayoutKind layout) {
    String name = "unchecked-counter";
    CounterRepository unchecked = new CounterRepository(store,
        CounterRepository.builder(name, store.objectMapper(), SnapshotPolicy.every(100), layout)
            .keys(new UncheckedKeys())
            .build());
    CounterId id = fresh(AggregateIds.maxBytes(name, layout) + 1);
    Map<String, Long> before = itemCounts();

    RuntimeException e = assertThrows(RuntimeException.class, () -> unchecked.create(new CounterCreated(id, "c")));

    assertFalse(e instanceof InvalidIdException, e.toString());
    // DynamoDB Local's words: the journal's sort key, or the tip's aid as the range key of an index.
    assertTrue(e.getMessage().contains("range primary key values must be under 1024 bytes")
        || e.getMessage().contains("Size limit exceeded"), e.getMessage());
    assertEquals(before, itemCounts());
  }

  /**
   * Runs every operation that takes an id with {@code id}: each must throw {@link InvalidIdException}
   * without a request or a write.
   */
  private List<InvalidIdException> refusedWithoutARequest(CounterRepository counters, CounterId id) {
    Map<String, Long> before = itemCounts();
    TestDynamo.requests().reset();
    List<Executable> operations = List.of(
        () -> counters.create(new CounterCreated(id, "c")),
        () -> counters.append(id, 1, new Incremented(1)),
        () -> counters.transact(id, counter -> List.of(new Incremented(1))),
        () -> counters.load(id),
        () -> counters.findById(id),
        () -> counters.loadVersioned(id),
        () -> counters.findAll(List.of(CounterId.random(), id)));
    List<InvalidIdException> refusals = operations.stream()
        .map(operation -> assertThrows(InvalidIdException.class, operation))
        .toList();
    assertEquals(Map.of(), TestDynamo.requests().snapshot(), "no request may be sent");
    assertEquals(before, itemCounts());
    return refusals;
  }

  private CounterRepository counters(LayoutKind layout) {
    return new CounterRepository(store,
        CounterRepository.builder(CounterRepository.NAME, store.objectMapper(), SnapshotPolicy.every(100), layout)
            .build());
  }

  /** A fresh id of exactly {@code bytes} UTF-8 bytes. */
  private static CounterId fresh(int bytes) {
    String unique = UUID.randomUUID().toString();
    return new CounterId(unique + "x".repeat(bytes - unique.length()));
  }

  private static Map<String, Long> itemCounts() {
    return TABLES.stream().collect(Collectors.toMap(table -> table, TestDynamo::itemCount));
  }

  private static final class UncheckedKeys implements AggregateKeys<Counter, CounterId> {
    @Override
    public CounterId idOf(Counter state) {
      return state.id();
    }

    @Override
    public String idString(CounterId id) {
      return id.value();
    }

    @Override
    public CounterId parseId(String idString) {
      return new CounterId(idString);
    }
  }
}
