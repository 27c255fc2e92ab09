package dev.esgen.runtime.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StoreListenerTest {

  private final List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
  private final DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withListener(heard::add));

  private CounterRepository counters(LayoutKind layout) {
    return layout == LayoutKind.TIP
        ? new CounterRepository(store, new TipPolicy(32 * 1024, 0, true))
        : new CounterRepository(store, SnapshotPolicy.every(1));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void eachOperationReportsItsRequestsCapacityAndAttempts(LayoutKind layout) {
    CounterRepository counters = counters(layout);
    CounterId id = CounterId.random();

    counters.create(new CounterCreated(id, "c"));
    OperationMetrics create = only();
    assertEquals("counter", create.aggregateType());
    assertEquals("create", create.operation());
    assertEquals(1, create.requests());
    assertEquals(0, create.readCapacityUnits());
    assertTrue(create.writeCapacityUnits() > 0, create.toString());
    assertEquals(1, create.attempts());
    assertEquals(0, create.conflicts());
    assertTrue(create.failure().isEmpty());

    counters.append(id, 1, new Incremented(1, "a"));
    OperationMetrics append = only();
    assertEquals("append", append.operation());
    assertEquals(2, append.requests(), "a load and a write: " + append);
    assertTrue(append.readCapacityUnits() >= 1, append.toString());
    assertTrue(append.writeCapacityUnits() > 0, append.toString());
    assertEquals(1, append.attempts());

    counters.load(id);
    OperationMetrics load = only();
    assertEquals("load", load.operation());
    assertEquals(1, load.requests());
    assertEquals(1.0, load.readCapacityUnits(), "a strongly consistent read of an item under 4 KB");
    assertEquals(0, load.writeCapacityUnits());
    assertEquals(0, load.attempts());
    assertTrue(load.latency().toNanos() > 0);

    VersionConflictException stale =
        assertThrows(VersionConflictException.class, () -> counters.append(id, 1, new Incremented(1, "b")));
    OperationMetrics failed = only();
    assertEquals(stale, failed.failure().orElseThrow());
    assertEquals(1, failed.requests());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void transactReportsItsConflictsAndAttempts(LayoutKind layout) throws Exception {
    CounterRepository counters = counters(layout);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    ExecutorService rival = Executors.newSingleThreadExecutor();
    try {
      int[] decisions = {0};
      counters.transact(id, counter -> {
        if (decisions[0]++ < 2) {
          // another writer overtakes this decision, from another thread as it would in production
          try {
            rival.submit(() -> counters.transact(id, c -> c.increment("rival"))).get(10, TimeUnit.SECONDS);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
        return counter.increment("mine");
      });
    } finally {
      rival.shutdownNow();
    }
    OperationMetrics transact = heard.stream()
        .filter(m -> m.operation().equals("transact") && m.conflicts() > 0).findFirst().orElseThrow();
    assertEquals(2, transact.conflicts());
    assertEquals(3, transact.attempts());
    assertEquals(6, transact.requests(), "three loads and three writes: " + transact);
    assertTrue(transact.writeCapacityUnits() > 0);
    assertEquals(3, counters.load(id).value());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aRepositoryCallInsideADecisionIsAnOperationOfItsOwn(LayoutKind layout) {
    CounterRepository counters = counters(layout);
    CounterId id = CounterId.random();
    CounterId other = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.create(new CounterCreated(other, "o"));
    heard.clear();

    int[] decisions = {0};
    counters.transact(id, counter -> {
      if (decisions[0]++ == 0) {
        counters.load(other);
        // on the same thread, overtakes this decision: the outer write then conflicts once
        counters.transact(id, c -> c.increment("nested"));
      }
      return counter.increment("outer");
    });

    assertEquals(List.of("load", "transact", "transact"), heard.stream().map(OperationMetrics::operation).toList());
    OperationMetrics load = heard.get(0);
    assertEquals(1, load.requests(), load.toString());
    assertEquals(0, load.attempts());
    OperationMetrics nested = heard.get(1);
    assertEquals(1, nested.attempts(), nested.toString());
    assertEquals(0, nested.conflicts());
    OperationMetrics outer = heard.get(2);
    assertEquals(2, outer.attempts(), outer.toString());
    assertEquals(1, outer.conflicts());
    assertEquals(2, nested.requests(), nested.toString());
    assertEquals(4, outer.requests(), "its own load and write, the reload after the conflict and the write only: "
        + outer);
    assertEquals(2, counters.load(id).value());
  }

  @Test
  void aDecisionThatThrowsAfterARepositoryCallLeavesEachOperationReportedAndTheThreadAsItWas() {
    CounterRepository counters = counters(LayoutKind.JOURNAL);
    CounterId id = CounterId.random();
    CounterId other = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.create(new CounterCreated(other, "o"));
    heard.clear();

    assertThrows(IllegalStateException.class, () -> counters.transact(id, counter -> {
      counters.load(other);
      throw new IllegalStateException("refused");
    }));
    counters.load(id);

    assertEquals(List.of("load", "transact", "load"), heard.stream().map(OperationMetrics::operation).toList());
    assertInstanceOf(IllegalStateException.class, heard.get(1).failure().orElseThrow());
    assertEquals(1, heard.get(1).requests(), "the transact's own load only: " + heard.get(1));
    assertEquals(1, heard.get(2).requests(), "a later operation is one of its own: " + heard.get(2));
  }

  @Test
  void aListenerThatThrowsDoesNotFailTheOperation() {
    DynamoDbEventStore noisy = TestDynamo.store(StoreConfig.defaults().withListener(m -> {
      throw new IllegalStateException("broken listener");
    }));
    CounterRepository counters = new CounterRepository(noisy, new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    assertEquals(0, counters.load(id).value());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aLookupOfAValueNoKeyCanHoldIsReportedAsTheAsynchronousRepositoryReportsIt(LayoutKind layout) {
    IndexedCounterRepository counters = new IndexedCounterRepository(store, layout, 0);
    String tooLong = "x".repeat(3_000);

    assertTrue(counters.findByNote(tooLong).isEmpty());
    OperationMetrics unique = only();
    assertEquals("findBynote", unique.operation());
    assertEquals(0, unique.requests());
    assertTrue(unique.failure().isEmpty());

    assertTrue(counters.listByName(tooLong, PageRequest.first(10)).items().isEmpty());
    OperationMetrics listed = only();
    assertEquals("listByname", listed.operation());
    assertEquals(0, listed.requests());

    assertThrows(IllegalArgumentException.class, () -> counters.findByNote(null));
    OperationMetrics refused = only();
    assertEquals("findBynote", refused.operation());
    assertInstanceOf(IllegalArgumentException.class, refused.failure().orElseThrow());
  }

  @Test
  void anErrorThrownByADecisionIsReportedAsAFailureAndReachesTheCallerAsItIs() {
    CounterRepository counters = counters(LayoutKind.JOURNAL);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    heard.clear();
    AssertionError broken = new AssertionError("a decision's own check");

    assertSame(broken, assertThrows(AssertionError.class, () -> counters.transact(id, counter -> {
      throw broken;
    })));
    OperationMetrics transact = only();
    assertEquals("transact", transact.operation());
    assertSame(broken, transact.failure().orElseThrow().getCause());
  }

  private OperationMetrics only() {
    assertEquals(1, heard.size(), heard.toString());
    OperationMetrics metrics = heard.get(0);
    heard.clear();
    assertInstanceOf(OperationMetrics.class, metrics);
    return metrics;
  }
}
