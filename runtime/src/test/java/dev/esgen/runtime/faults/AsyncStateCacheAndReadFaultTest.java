package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The asynchronous repository under faults away from the append itself: the state cache after an append
 * of unknown outcome, batch reads resent, and what a throwing {@code decide} fails the future with.
 */
class AsyncStateCacheAndReadFaultTest {

  private final List<DynamoDbAsyncClient> clients = new ArrayList<>();
  private final List<OperationMetrics> heard = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    clients.forEach(DynamoDbAsyncClient::close);
  }

  private AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> async(
      Layout layout, FaultInjector injector, StoreConfig config) {
    DynamoDbAsyncClient client = AsyncDynamo.client(injector);
    clients.add(client);
    AsyncEventStore store = DynamoDbAsyncEventStore.create(client, config.withListener(heard::add));
    return new AsyncEventSourcedRepository<>(store, layout.counters(TestDynamo.store()).definition()) {};
  }

  private static StoreConfig small() {
    return StoreConfig.defaults().withRetryPolicy(new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5)));
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void stateCacheForgetsAfterUnknownOutcome(Layout layout) {
    FaultInjector faults = FaultInjector.builder(13).build();
    var counters = async(layout, faults, small().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(5))));
    CounterId id = CounterId.random();
    AsyncFaultScenariosTest.await(counters.create(new CounterCreated(id, "c")));
    AsyncFaultScenariosTest.await(counters.transact(id, c -> c.increment("known")));
    faults.always(layout.appendRequest(false), Fault.LOST_RESPONSE);
    faults.always(GetItemRequest.class, Fault.SERVER_ERROR);
    faults.always(QueryRequest.class, Fault.SERVER_ERROR);
    assertInstanceOf(AppendOutcomeUnknownException.class,
        AsyncFaultScenariosTest.failureOf(counters.transact(id, c -> c.increment("unknown"))));
    faults.clear();
    AsyncFaultScenariosTest.await(counters.transact(id, c -> c.increment("after")));
    OperationMetrics after = heard.get(heard.size() - 1);
    assertEquals(0, after.conflicts());
    assertEquals(3, AsyncFaultScenariosTest.await(counters.load(id, ReadOptions.strong())).value());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void findAllUnderFaults(Layout layout) {
    FaultInjector faults = FaultInjector.builder(13).build();
    var counters = async(layout, faults, StoreConfig.defaults().withRetryPolicy(new RetryPolicy(8, Duration.ofMillis(1), Duration.ofMillis(5))));
    CounterRepository clean = layout.counters(TestDynamo.store());
    List<CounterId> ids = new ArrayList<>();
    for (int k = 0; k < 5; k++) {
      CounterId id = CounterId.random();
      ids.add(id);
      clean.create(new CounterCreated(id, "c"));
      for (int n = 0; n < k * 3; n++) {
        clean.transact(id, c -> c.increment("x"));
      }
    }
    faults.enqueue(BatchGetItemRequest.class, Fault.THROTTLED, Fault.SERVER_ERROR, Fault.TIMEOUT_BEFORE_SEND);
    faults.enqueue(QueryRequest.class, Fault.SERVER_ERROR, Fault.THROTTLED);
    Map<CounterId, Counter> found = AsyncFaultScenariosTest.await(counters.findAll(ids));
    assertEquals(5, found.size());
    for (int k = 0; k < 5; k++) {
      assertEquals(k * 3, found.get(ids.get(k)).value());
    }
    faults.clear();
    faults.always(BatchGetItemRequest.class, Fault.SERVER_ERROR);
    assertInstanceOf(StoreUnavailableException.class, AsyncFaultScenariosTest.failureOf(counters.findAll(ids)));
    faults.clear();
    faults.always(QueryRequest.class, Fault.THROTTLED);
    CompletableFuture<Map<CounterId, Counter>> queriesRefused = counters.findAll(ids);
    if (layout == Layout.JOURNAL) {
      // Events after the snapshot are read with a Query: refused until the budget ends.
      assertInstanceOf(StoreUnavailableException.class, AsyncFaultScenariosTest.failureOf(queriesRefused));
    } else {
      assertEquals(5, AsyncFaultScenariosTest.await(queriesRefused).size(), "tips with snapshots need no Query");
    }
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void decideThrowsAndThreads(Layout layout) throws Exception {
    FaultInjector faults = FaultInjector.builder(13).build();
    var counters = async(layout, faults, small());
    CounterId id = CounterId.random();
    AsyncFaultScenariosTest.await(counters.create(new CounterCreated(id, "c")));
    Throwable refused = AsyncFaultScenariosTest.failureOf(counters.transact(id, c -> {
      throw new IllegalStateException("refused");
    }));
    assertInstanceOf(IllegalStateException.class, refused);
    Throwable error = AsyncFaultScenariosTest.failureOf(counters.transact(id, c -> {
      throw new AssertionError("boom");
    }));
    assertInstanceOf(AssertionError.class, error);
    Set<String> threads = ConcurrentHashMap.newKeySet();
    faults.enqueue(layout.appendRequest(false), Fault.THROTTLED, Fault.LOST_RESPONSE);
    AsyncFaultScenariosTest.await(counters.transact(id, c -> {
      threads.add(Thread.currentThread().getName());
      return c.increment("t");
    }));
    // The caller's thread too: a load DynamoDB answered before esgen chained the decision onto it (on a busy
    // machine, say) goes on at once on the thread that chains it; never on Netty's threads.
    String caller = Thread.currentThread().getName();
    assertTrue(threads.stream().allMatch(t -> t.startsWith("sdk-async-response")
        || t.startsWith("ForkJoinPool.commonPool") || t.equals(caller)), "decide ran on " + threads);
  }
}
