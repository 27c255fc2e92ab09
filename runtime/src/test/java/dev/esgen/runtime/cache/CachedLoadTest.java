package dev.esgen.runtime.cache;

import static dev.esgen.runtime.testing.AsyncStoreFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.StreamPosition;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Strongly consistent loads with the state cache on, against DynamoDB Local: the store still reads the
 * stream's head (the journal's head row, the tip) to learn where the stream ends, but folds on from the
 * state it remembers instead of decoding the snapshot and reading the events after it again. Each test
 * compares with a store without a cache (another process) reading the same stream: the same state and
 * version, fewer requests or read units.
 *
 * <p>The streams are shaped so that a load without the cache has events to read besides the head: the
 * journal snapshots every 100 events, and the tip keeps no snapshot and calves every 4 events into
 * batches.
 */
class CachedLoadTest {

  private static final StateCachePolicy CACHE = StateCachePolicy.of(1_000, Duration.ofMinutes(5));
  /** A note of 1,000 characters: 25 of them take about 7 read units to read again. */
  private static final String LONG_NOTE = "n".repeat(1_000);

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  /** A store with its own listener and cache: one process. */
  private static final class Process {
    final List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
    final DynamoDbEventStore store;
    final CounterRepository counters;

    Process(CounterLayout layout, StateCachePolicy cache) {
      store = TestDynamo.store(StoreConfig.defaults().withListener(heard::add).withStateCache(cache));
      counters = layout == CounterLayout.JOURNAL
          ? new CounterRepository(store, SnapshotPolicy.every(100))
          : new CounterRepository(store, new TipPolicy(32 * 1024, 4, false));
    }

    OperationMetrics last() {
      return heard.get(heard.size() - 1);
    }

    /** A new counter with {@code notes} long notes after its creation, one command each. */
    CounterId counterWithLongNotes(int notes) {
      CounterId id = CounterId.random();
      counters.create(new CounterCreated(id, "c"));
      for (int i = 0; i < notes; i++) {
        counters.transact(id, counter -> List.of(new Noted(LONG_NOTE)));
      }
      return id;
    }

    /** {@code times} increments of {@code id}, one command each. */
    void increment(CounterId id, int times) {
      for (int i = 0; i < times; i++) {
        counters.transact(id, counter -> counter.increment("by-" + counter.value()));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aLoadOfAStreamTheCacheHoldsAtItsLastEventReadsOnlyTheHead(CounterLayout layout) {
    Process cached = new Process(layout, CACHE);
    Process plain = new Process(layout, StateCachePolicy.disabled());
    CounterId id = cached.counterWithLongNotes(25);

    Versioned<Counter> stored = plain.counters.loadVersioned(id);
    OperationMetrics withoutCache = plain.last();
    Versioned<Counter> loaded = cached.counters.loadVersioned(id, ReadOptions.strong());
    OperationMetrics withCache = cached.last();

    assertEquals(stored, loaded, "the remembered state is the stored one");
    assertEquals(26, loaded.version());
    assertEquals(25, loaded.state().notes());
    assertTrue(withoutCache.requests() >= 2, "without the cache: the head, then the events after the snapshot");
    assertEquals(1, withCache.requests(), "with the cache: the head only");
    assertTrue(withCache.readCapacityUnits() < withoutCache.readCapacityUnits(),
        withCache.readCapacityUnits() + " RCU with the cache, " + withoutCache.readCapacityUnits() + " without");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aLoadAfterAnotherProcessAppendedFoldsOnlyTheNewEventsOntoTheRememberedState(CounterLayout layout) {
    Process cached = new Process(layout, CACHE);
    Process other = new Process(layout, StateCachePolicy.disabled());
    CounterId id = cached.counterWithLongNotes(25);
    // Two more events: the tip (4 events at most) then holds events 25 to 28, the remembered 26 among them.
    other.increment(id, 2);

    Versioned<Counter> stored = other.counters.loadVersioned(id);
    OperationMetrics withoutCache = other.last();
    Versioned<Counter> loaded = cached.counters.loadVersioned(id, ReadOptions.strong());
    OperationMetrics withCache = cached.last();

    assertEquals(stored, loaded, "the remembered state with the other process's events folded on");
    assertEquals(28, loaded.version());
    assertEquals(2, loaded.state().value());
    assertEquals(25, loaded.state().notes());
    assertTrue(withCache.requests() <= withoutCache.requests());
    assertTrue(withCache.readCapacityUnits() < withoutCache.readCapacityUnits(),
        "the 25 long notes are not read again: " + withCache.readCapacityUnits() + " RCU with the cache, "
            + withoutCache.readCapacityUnits() + " without");

    cached.counters.transact(id, counter -> counter.increment("cached-" + counter.value()));
    assertEquals(1, cached.last().requests(), "the load refreshed the cache: the append only");
    assertEquals(3, other.counters.load(id).value());
  }

  /**
   * A transact that decided on a remembered state another process had moved on: DynamoDB refuses its
   * append, and the refusal makes the cache drop that state. It is the stream's state at its version all
   * the same, so the reload folds on from it and reads only what the other process appended, as a load
   * with the cache does, rather than the 25 long notes again; synchronous and asynchronous alike.
   */
  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void theReloadAfterARefusedAppendFoldsOnFromTheStateDecidedOn(CounterLayout layout) {
    Process cached = new Process(layout, CACHE);
    Process other = new Process(layout, StateCachePolicy.disabled());
    CounterId id = cached.counterWithLongNotes(25);
    var asyncCounters = new AsyncEventSourcedRepository<Counter, CounterId, CounterEvent>(
        cached.store.withAsyncClient(async.client()), cached.counters.definition()) {};

    for (boolean sync : new boolean[] {true, false}) {
      other.increment(id, 1);
      other.counters.loadVersioned(id);
      OperationMetrics fullLoad = other.last();
      List<Long> decidedOn = new CopyOnWriteArrayList<>();
      Function<Counter, List<CounterEvent>> decide = counter -> {
        decidedOn.add(counter.value());
        return counter.increment("cached-" + counter.value());
      };
      Versioned<Counter> written =
          sync ? cached.counters.transact(id, decide) : await(asyncCounters.transact(id, decide));
      OperationMetrics transact = cached.last();

      String side = sync ? "sync: " : "async: ";
      assertEquals(1, transact.conflicts(), side + "decided on the remembered state first");
      assertEquals(List.of(written.state().value() - 2, written.state().value() - 1), decidedOn,
          side + "then on the stored one");
      assertTrue(transact.readCapacityUnits() * 2 < fullLoad.readCapacityUnits(), side + "the reload read "
          + transact.readCapacityUnits() + " RCU, a load without the cache " + fullLoad.readCapacityUnits());
      Versioned<Counter> stored = other.counters.loadVersioned(id);
      assertEquals(stored, written, side + "what the transact returned is what is stored");
      assertEquals(25, stored.state().notes());
      assertEquals(new Incremented(1, "cached-" + (stored.state().value() - 1)), lastEvent(other, id));
    }
    assertEquals(4, other.counters.load(id).value(), "each command once");
  }

  private static CounterEvent lastEvent(Process process, CounterId id) {
    try (var events = process.counters.events(id)) {
      return events.reduce((first, second) -> second).orElseThrow().event();
    }
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aFindAllReadsTheEventsOnlyOfStreamsTheCacheDoesNotHoldAtTheirEnd(CounterLayout layout) {
    Process cached = new Process(layout, CACHE);
    Process plain = new Process(layout, StateCachePolicy.disabled());
    CounterId remembered = cached.counterWithLongNotes(6);
    CounterId changed = cached.counterWithLongNotes(6);
    plain.increment(changed, 1);

    Map<CounterId, Counter> stored = plain.counters.findAll(List.of(remembered, changed));
    OperationMetrics withoutCache = plain.last();
    Map<CounterId, Counter> found = cached.counters.findAll(List.of(remembered, changed));
    OperationMetrics withCache = cached.last();

    assertEquals(stored, found);
    assertEquals(1, found.get(changed).value());
    assertEquals(3, withoutCache.requests(), "the heads, then the events of each stream after its snapshot");
    // The journal queries the other process's event; the tip holds it (events 5 to 8), so the tips are all.
    assertEquals(layout == CounterLayout.JOURNAL ? 2 : 1, withCache.requests(),
        "the heads, then what another process wrote after the remembered state, if it is not in the head");
    assertTrue(withCache.readCapacityUnits() < withoutCache.readCapacityUnits());
  }

  @Test
  void aRememberedStateBehindTheTipsEventsReadsOnlyTheNewestBatches() {
    Process cached = new Process(CounterLayout.TIP, CACHE);
    Process other = new Process(CounterLayout.TIP, StateCachePolicy.disabled());
    CounterId id = cached.counterWithLongNotes(24);   // events 2 to 25: six batches of four, the tip holds 25
    other.increment(id, 4);                           // events 26 to 29: 25 to 28 calved, the tip holds 29

    Versioned<Counter> stored = other.counters.loadVersioned(id);
    OperationMetrics withoutCache = other.last();
    Versioned<Counter> loaded = cached.counters.loadVersioned(id, ReadOptions.strong());
    OperationMetrics withCache = cached.last();

    assertEquals(stored, loaded);
    assertEquals(4, loaded.state().value());
    assertEquals(24, loaded.state().notes());
    assertEquals(2, withoutCache.requests(), "the tip, then every batch");
    assertEquals(2, withCache.requests(), "the tip, then the batches after the remembered event");
    // Events 26 to 28 are in the batches: at most three batches are asked for, not the 24 notes' six.
    assertTrue(withCache.readCapacityUnits() <= withoutCache.readCapacityUnits() / 2,
        withCache.readCapacityUnits() + " RCU with the cache, " + withoutCache.readCapacityUnits() + " without");
  }

  @Test
  void aRememberedStreamBehindTheSnapshotLeavesTheLoadToTheSnapshot() {
    List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
    DynamoDbEventStore listened =
        TestDynamo.store(StoreConfig.defaults().withStateCache(CACHE).withListener(heard::add));
    CounterRepository writer = new CounterRepository(TestDynamo.store(), SnapshotPolicy.every(5));
    CounterRepository reader = new CounterRepository(listened, SnapshotPolicy.every(5));
    CounterId id = CounterId.random();
    writer.create(new CounterCreated(id, "c"));
    reader.load(id);                                      // remembered at event 1
    for (int i = 0; i < 20; i++) {                        // events 2 to 21, the last snapshot at 21
      writer.append(writer.loadVersioned(id), List.of(new Noted(LONG_NOTE)));
    }
    for (int i = 0; i < 2; i++) {                         // events 22 and 23, after the snapshot
      writer.append(writer.loadVersioned(id), List.of(new Incremented(1, "after")));
    }

    Counter loaded = reader.load(id);
    OperationMetrics load = heard.get(heard.size() - 1);

    assertEquals(writer.load(id), loaded);
    assertEquals(2, load.requests(), "the head, then the two events after the snapshot");
    assertTrue(load.readCapacityUnits() <= 2,
        "not the 20 long notes after the remembered event 1: " + load.readCapacityUnits() + " RCU");
  }

  @Test
  void twoDefinitionsOfOneAggregateOnOneStoreEachFoldOnFromTheirOwnStates() {
    DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withStateCache(CACHE));
    CounterRepository oldCode = new CounterRepository(store, SnapshotPolicy.every(100));
    AggregateDefinition<Counter, CounterId, CounterEvent> tenfold =
        CounterRepository.tenfoldDefinition(store.objectMapper(), SnapshotPolicy.every(100));
    CounterRepository newCode = new CounterRepository(store, tenfold);
    CounterId id = CounterId.random();
    oldCode.create(new CounterCreated(id, "c"));
    for (int i = 1; i <= 3; i++) {
      oldCode.append(id, i, new Incremented(1, "old"));
    }
    assertEquals(3, oldCode.load(id).value());

    Versioned<Counter> loaded = newCode.loadVersioned(id, ReadOptions.strong());

    assertEquals(new CounterRepository(TestDynamo.store(), tenfold).loadVersioned(id), loaded,
        "the new code folds the stored events itself, not on from what the old code remembered");
    assertEquals(30, loaded.state().value());
    assertEquals(3, oldCode.load(id).value(), "and the old code keeps its own");
  }

  @Test
  void onlyAStreamBetweenTheSnapshotAndTheEndIsFoldedOnFrom() {
    StreamPosition position = new StreamPosition() {};
    LoadedStream<String> atTen = new LoadedStream<>("state", 4, 10, position);

    assertTrue(atTen.canResumeFold(0, 10, 4), "no snapshot to use, nothing appended since");
    assertTrue(atTen.canResumeFold(10, 12, 5), "at the snapshot, two events appended since");
    assertFalse(atTen.canResumeFold(11, 12, 5), "behind the snapshot: the snapshot is nearer the end");
    assertFalse(atTen.canResumeFold(0, 9, 4), "past the stream's end, e.g. an older replica's answer");
    assertFalse(atTen.canResumeFold(0, 10, 3), "a version the stream never had at that event");
  }

  @Test
  void anAsyncLoadOfAStreamTheCacheHoldsReadsOnlyTheHead() {
    AsyncEventStore cachedStore = async.store(StoreConfig.defaults().withStateCache(CACHE));
    AsyncCounterRepository cached = new AsyncCounterRepository(cachedStore, LayoutKind.JOURNAL, 0);
    AsyncCounterRepository plain = new AsyncCounterRepository(async.store(StoreConfig.defaults()), LayoutKind.JOURNAL, 0);
    CounterId id = CounterId.random();
    await(cached.create(new CounterCreated(id, "c")));
    for (int i = 0; i < 3; i++) {
      await(cached.transact(id, counter -> counter.increment("t")));    // the snapshot stays at event 1 of 4
    }

    async.faults().clear();
    Versioned<Counter> stored = await(plain.loadVersioned(id));
    assertEquals(List.of("GetItem", "Query"), async.sent(), "without the cache: the head, then the events");
    async.faults().clear();
    Versioned<Counter> loaded = await(cached.loadVersioned(id, ReadOptions.strong()));
    assertEquals(List.of("GetItem"), async.sent(), "with the cache: the head only");
    assertEquals(stored, loaded);
    assertEquals(3, loaded.state().value());
  }

  @Test
  void anAsyncTipLoadAfterAnotherProcessWroteReturnsWhatIsStored() {
    AsyncCounterRepository cached =
        new AsyncCounterRepository(async.store(StoreConfig.defaults().withStateCache(CACHE)), LayoutKind.TIP, 2);
    IndexedCounterRepository other = new IndexedCounterRepository(TestDynamo.store(), LayoutKind.TIP, 2);
    CounterId id = CounterId.random();
    await(cached.create(new CounterCreated(id, "c")));
    await(cached.transact(id, counter -> counter.increment("cached")));
    for (int i = 0; i < 5; i++) {
      other.transact(id, counter -> counter.increment("other-" + counter.value()));
    }

    async.faults().clear();
    Versioned<Counter> loaded = await(cached.loadVersioned(id, ReadOptions.strong()));

    assertEquals(List.of("GetItem"), async.sent(), "the tip");
    assertEquals(other.loadVersioned(id), loaded);
    assertEquals(6, loaded.state().value());
  }
}
