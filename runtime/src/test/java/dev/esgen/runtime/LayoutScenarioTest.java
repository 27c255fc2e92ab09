package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The same repository scenario on every storage layout: the API behaves alike, whichever is chosen. */
class LayoutScenarioTest {

  // Patient retries: four threads on one stream on a busy CI machine can starve one for ten attempts.
  private final DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults()
      .withRetryPolicy(Contention.PATIENT));

  /** Counters in {@code layout}; the tip calves at 1 KB so the scenario crosses batches. */
  private CounterRepository counters(LayoutKind layout) {
    return switch (layout) {
      case JOURNAL -> new CounterRepository(store, SnapshotPolicy.every(5));
      case TIP -> new CounterRepository(store, new TipPolicy(1024, 0, true));
    };
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void createAppendTransactAndReadBehaveTheSame(LayoutKind layout) {
    CounterRepository counters = counters(layout);
    assertEquals(layout, counters.definition().layout());
    CounterId id = CounterId.random();

    assertEquals(Optional.empty(), counters.findById(id));
    assertThrows(AggregateNotFoundException.class, () -> counters.load(id));
    assertThrows(AggregateNotFoundException.class, () -> counters.append(id, 0, new Incremented(1, "x")));

    Versioned<Counter> created = counters.create(List.of(new CounterCreated(id, "visits"), new Incremented(2, "a")));
    assertEquals(new Versioned<>(new Counter(id, "visits", 2, 0, ""), 1, 2), created);
    assertThrows(AggregateAlreadyExistsException.class, () -> counters.create(new CounterCreated(id, "again")));

    Versioned<Counter> appended = counters.append(id, 1, List.of(new Incremented(3, "b"), new Noted("hello")));
    assertEquals(new Versioned<>(new Counter(id, "visits", 5, 1, "hello"), 2, 4), appended);

    VersionConflictException stale =
        assertThrows(VersionConflictException.class, () -> counters.append(id, 1, new Incremented(1, "late")));
    assertEquals(1, stale.expectedVersion());
    assertEquals(OptionalLong.of(2), stale.actualVersion());

    Versioned<Counter> at = appended;
    for (int i = 0; i < 30; i++) {
      at = counters.transact(id, counter -> counter.increment("t"));
    }
    assertEquals(new Versioned<>(new Counter(id, "visits", 35, 1, "hello"), 32, 34), at);
    assertEquals(Optional.of(at), counters.findVersioned(id));
    assertEquals(at, counters.loadVersioned(id));
    assertEquals(at.state(), counters.load(id));
    assertEquals(Optional.of(at.state()), counters.findById(id));
    assertEquals(at, counters.transact(id, counter -> List.of()));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void transactUnderContentionLosesAndDuplicatesNothing(LayoutKind layout) throws Exception {
    CounterRepository counters = counters(layout);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "hot"));
    int threads = 4;
    int perThread = 15;
    Contention.run(threads, perThread, (thread, i) -> counters.transact(id, counter -> counter.increment("x")));
    Versioned<Counter> end = counters.findVersioned(id).orElseThrow();
    int total = threads * perThread;
    assertEquals(total, end.state().value());
    assertEquals(total + 1, end.seqNr());
    assertEquals(total + 1, end.version());
  }
}
