package dev.esgen.runtime.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Eventually consistent reads as DynamoDB Local reports them: the same requests as strongly consistent
 * ones for half the read units, per call, as an aggregate type's default and as the store's.
 */
class ReadConsistencyTest {

  private final List<OperationMetrics> heard = new CopyOnWriteArrayList<>();

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anEventuallyConsistentLoadReadsHalfTheUnits(CounterLayout layout) {
    CounterRepository counters = counters(layout, StoreConfig.defaults());
    // About 10 KB of events after the snapshot (journal: head row and a query; tip: one large tip).
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    List<CounterEvent> events = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      events.add(new Noted("n".repeat(1_000)));
    }
    counters.append(id, 1, events);

    OperationMetrics strong = measure(() -> counters.load(id, ReadOptions.strong()));
    OperationMetrics eventual = measure(() -> counters.load(id, ReadOptions.eventual()));
    OperationMetrics byDefault = measure(() -> counters.load(id));
    assertEquals(strong.requests(), eventual.requests(), "the same requests");
    assertTrue(strong.readCapacityUnits() >= 3, "a load big enough to tell: " + strong.readCapacityUnits());
    assertEquals(strong.readCapacityUnits() / 2, eventual.readCapacityUnits(), 1e-9);
    assertEquals(strong.readCapacityUnits(), byDefault.readCapacityUnits(), 1e-9, "strong stays the default");
    assertEquals(counters.load(id), counters.load(id, ReadOptions.eventual()));
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anAggregateTypesDefaultAppliesToItsRepositoryOnlyAndACallOverridesIt(CounterLayout layout) {
    DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withListener(heard::add)
        .withReadConsistency(CounterRepository.NAME, ReadConsistency.EVENTUAL));
    CounterRepository eventual = counters(layout, store);
    IndexedCounterRepository other = new IndexedCounterRepository(store, kind(layout), 0);
    CounterId id = CounterId.random();
    eventual.create(new CounterCreated(id, "c"));
    CounterId otherId = CounterId.random();
    other.create(new CounterCreated(otherId, "o"));

    double byDefault = measure(() -> eventual.findById(id)).readCapacityUnits();
    double strong = measure(() -> eventual.findById(id, ReadOptions.strong())).readCapacityUnits();
    assertEquals(strong / 2, byDefault, 1e-9);
    double otherType = measure(() -> other.findById(otherId)).readCapacityUnits();
    double otherStrong = measure(() -> other.findById(otherId, ReadOptions.strong())).readCapacityUnits();
    assertEquals(otherStrong, otherType, 1e-9, "another type keeps the store's strong default");
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void lookupsAndFindAllReadHalfTheUnitsWhenTheStoreDefaultIsEventual(LayoutKind layout) {
    DynamoDbEventStore strongStore = TestDynamo.store(StoreConfig.defaults().withListener(heard::add));
    DynamoDbEventStore eventualStore = TestDynamo.store(
        StoreConfig.defaults().withListener(heard::add).withReadConsistency(ReadConsistency.EVENTUAL));
    IndexedCounterRepository strong = new IndexedCounterRepository(strongStore, layout, 0);
    IndexedCounterRepository eventual = new IndexedCounterRepository(eventualStore, layout, 0);
    List<CounterId> ids = new ArrayList<>();
    String note = "note-" + CounterId.random().value();
    for (int i = 0; i < 3; i++) {
      CounterId id = CounterId.random();
      ids.add(id);
      strong.create(List.of(new CounterCreated(id, "c"), new Noted(i == 0 ? note : "x".repeat(3_000))));
    }

    OperationMetrics uniqueStrong = measure(() -> strong.findByNote(note));
    OperationMetrics uniqueEventual = measure(() -> eventual.findByNote(note));
    assertEquals(2, uniqueEventual.requests(), "the reservation, then the stream");
    assertEquals(uniqueStrong.readCapacityUnits() / 2, uniqueEventual.readCapacityUnits(), 1e-9);
    assertEquals(strong.findByNote(note), eventual.findByNote(note));

    OperationMetrics allStrong = measure(() -> strong.findAll(ids));
    OperationMetrics allEventual = measure(() -> eventual.findAll(ids));
    assertEquals(1, allEventual.requests(), "one BatchGetItem");
    assertEquals(allStrong.readCapacityUnits() / 2, allEventual.readCapacityUnits(), 1e-9);
    assertEquals(3, eventual.findAll(ids).size());
  }

  private OperationMetrics measure(Supplier<?> read) {
    heard.clear();
    read.get();
    assertEquals(1, heard.size());
    return heard.get(0);
  }

  private CounterRepository counters(CounterLayout layout, StoreConfig config) {
    return counters(layout, TestDynamo.store(config.withListener(heard::add)));
  }

  private static CounterRepository counters(CounterLayout layout, DynamoDbEventStore store) {
    return layout == CounterLayout.JOURNAL
        ? new CounterRepository(store)
        : new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
  }

  private static LayoutKind kind(CounterLayout layout) {
    return layout == CounterLayout.JOURNAL ? LayoutKind.JOURNAL : LayoutKind.TIP;
  }
}
