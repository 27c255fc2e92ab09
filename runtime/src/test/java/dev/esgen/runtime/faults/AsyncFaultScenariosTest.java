package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.faults.StoredStreams.StoredAppend;
import dev.esgen.runtime.faults.StoredStreams.StoredStream;
import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The scenarios of {@link FaultScenariosTest}, one fault at a time, on every layout, through the
 * asynchronous repository: what the future fails with against what is stored, read raw from the tables.
 */
class AsyncFaultScenariosTest {

  private static final RetryPolicy SMALL = new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(15));

  private final FaultInjector faults = FaultInjector.builder(8).build();
  private final List<DynamoDbAsyncClient> clients = new ArrayList<>();

  @AfterEach
  void close() {
    clients.forEach(DynamoDbAsyncClient::close);
  }

  static List<Arguments> layoutsWithAndWithoutCommandIds() {
    return Layout.each(false, true);
  }

  static List<Arguments> layoutsAndRefusals() {
    return Layout.each(Fault.THROTTLED, Fault.TRANSACTION_CONFLICT);
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void anAppendWhoseResponseIsLostWhileTwelveOthersAppendIsStoredOnce(Layout layout, boolean withCommandId) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterRepository others = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    others.create(new CounterCreated(id, "c"));
    faults.enqueue(layout.appendRequest(withCommandId), Fault.LOST_RESPONSE_AFTER_OTHERS);
    faults.onLostResponse(request -> {
      for (int k = 0; k < 12; k++) {
        String tag = "other-" + k;
        others.transact(id, c -> c.increment(tag));
      }
    });

    Versioned<Counter> appended = await(withCommandId
        ? counters.transact(id, "mine", c -> c.increment("mine"))
        : counters.transact(id, c -> c.increment("mine")));

    assertEquals(1, faults.appliedWrites());
    assertEquals(2, appended.version());
    assertEquals(1, appended.state().value());
    StoredStream stored = whole(layout, id);
    assertEquals(14, stored.appends().size());
    assertEquals(List.of(new Incremented(1, "mine")), stored.appends().get(1).events());
    assertEquals(1, stored.count(new Incremented(1, "mine")));
    assertEquals(faults.executions(), faults.transmissions(), "the SDK retried by itself");
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void aCreateWhoseResponseIsLostWhileOthersAppendSucceedsOnce(Layout layout, boolean withCommandId) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterRepository others = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    faults.enqueue(layout.createRequest(withCommandId), Fault.LOST_RESPONSE_AFTER_OTHERS);
    faults.onLostResponse(request -> {
      for (int k = 0; k < 6; k++) {
        String tag = "other-" + k;
        others.transact(id, c -> c.increment(tag));
      }
    });
    CounterCreated creating = new CounterCreated(id, "c");

    Versioned<Counter> created = await(withCommandId
        ? counters.create("create-" + id.value(), List.of(creating))
        : counters.create(creating));

    assertEquals(1, created.version());
    StoredStream stored = whole(layout, id);
    assertEquals(7, stored.appends().size());
    assertEquals(1, stored.count(creating));
    if (withCommandId) {
      Versioned<Counter> repeated = await(counters.create("create-" + id.value(), List.of(creating)));
      assertEquals(7, repeated.version());
      assertEquals(7, whole(layout, id).appends().size());
    }
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aCommandStoredByAConcurrentTryWhileThisTrysFirstAttemptTimedOutAnswersWithTheStoredStream(Layout layout) {
    RaceBeforeFirstTransaction race = new RaceBeforeFirstTransaction();
    DynamoDbAsyncClient client = AsyncDynamo.client(race);
    clients.add(client);
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = new AsyncEventSourcedRepository<>(
        DynamoDbAsyncEventStore.create(client, StoreConfig.defaults().withRetryPolicy(SMALL)),
        layout.counters(TestDynamo.store()).definition()) {};
    CounterRepository other = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    race.first = () -> other.create("c-1", List.of(new CounterCreated(id, "c")));

    Versioned<Counter> created = await(counters.create("c-1", List.of(new CounterCreated(id, "c"))));

    assertEquals(other.loadVersioned(id), created);
    race.first = () -> other.append(id, 1, "c-2", List.of(new Incremented(1, "once")));

    Versioned<Counter> appended = await(counters.append(id, 1, "c-2", List.of(new Incremented(1, "once"))));

    assertEquals(other.loadVersioned(id), appended);
    assertEquals(List.of(new CounterCreated(id, "c"), new Incremented(1, "once")), whole(layout, id).events());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void manyTriesOfTheSameCommandsInFlightUnderFaultsStoreEachOnce(Layout layout) {
    FaultInjector random = FaultInjector.builder(10)
        .rate(Fault.LOST_RESPONSE, 0.1).rate(Fault.TIMEOUT_AFTER_APPLY, 0.05).rate(Fault.SERVER_ERROR, 0.05)
        .rate(Fault.THROTTLED, 0.05).rate(Fault.TRANSACTION_CONFLICT, 0.05)
        .build();
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters =
        async(layout, random, new RetryPolicy(20, Duration.ofMillis(2), Duration.ofMillis(50), Duration.ofSeconds(15)));
    CounterRepository clean = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    clean.create(new CounterCreated(id, "c"));
    int rounds = 8;
    for (int round = 0; round < rounds; round++) {
      String command = "command-" + round;
      List<CompletableFuture<Versioned<Counter>>> tries = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        tries.add(counters.transact(id, command, c -> c.increment(command)));
      }
      for (CompletableFuture<Versioned<Counter>> attempt : tries) {
        assertEquals(round + 2, await(attempt).version(), command);
      }
    }
    StoredStream stored = whole(layout, id);
    for (int round = 0; round < rounds; round++) {
      assertEquals(1, stored.count(new Incremented(1, "command-" + round)), "command-" + round);
    }
    assertEquals(rounds + 1, stored.appends().size());
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void unknownOutcomesOfAnAppendNotAppliedUntilTheBudgetEndsAreReportedAsUnknownAndNothingIsStored(
      Layout layout, boolean withCommandId) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    faults.always(layout.appendRequest(withCommandId), Fault.SERVER_ERROR);

    Throwable failure = failureOf(withCommandId
        ? counters.transact(id, "c-1", c -> c.increment("mine"))
        : counters.transact(id, c -> c.increment("mine")));

    AppendOutcomeUnknownException e = assertInstanceOf(AppendOutcomeUnknownException.class, failure);
    assertEquals(1, e.expectedVersion());
    StoredStream stored = whole(layout, id);
    assertEquals(1, stored.appends().size());
    assertEquals(Optional.empty(), StoredStreams.commandRecord(CounterRepository.NAME, id.value(), "c-1"));
    if (withCommandId) {
      faults.clear();
      AtomicInteger decided = new AtomicInteger();
      Versioned<Counter> repeated = await(counters.transact(id, "c-1", c -> {
        decided.incrementAndGet();
        return c.increment("mine");
      }));
      assertEquals(1, decided.get());
      assertEquals(2, repeated.version());
      assertEquals(1, whole(layout, id).count(new Incremented(1, "mine")));
    }
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void anAppendAppliedWhoseOutcomeStaysUnknownUntilTheBudgetEndsIsStoredOnceAndARepeatDoesNotDecide(
      Layout layout, boolean withCommandId) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    Class<? extends SdkRequest> append = layout.appendRequest(withCommandId);
    faults.enqueue(append, Fault.LOST_RESPONSE_AFTER_OTHERS);
    faults.onLostResponse(request -> faults
        .always(append, Fault.SERVER_ERROR)
        .always(GetItemRequest.class, Fault.SERVER_ERROR)
        .always(QueryRequest.class, Fault.SERVER_ERROR));

    Throwable failure = failureOf(withCommandId
        ? counters.transact(id, "c-1", c -> c.increment("mine"))
        : counters.transact(id, c -> c.increment("mine")));

    AppendOutcomeUnknownException e = assertInstanceOf(AppendOutcomeUnknownException.class, failure);
    assertEquals(1, faults.appliedWrites());
    StoredStream stored = whole(layout, id);
    assertEquals(2, stored.appends().size());
    assertEquals(new StoredAppend(e.appendId(), List.of(new Incremented(1, "mine"))), stored.appends().get(1));
    if (withCommandId) {
      faults.clear();
      AtomicInteger decided = new AtomicInteger();
      Versioned<Counter> repeated = await(async(layout, FaultInjector.builder(0).build(), SMALL)
          .transact(id, "c-1", c -> {
            decided.incrementAndGet();
            return c.increment("mine");
          }));
      assertEquals(0, decided.get());
      assertEquals(2, repeated.version());
      assertEquals(2, whole(layout, id).appends().size());
    }
  }

  @ParameterizedTest
  @MethodSource("layoutsAndRefusals")
  void anAppendRefusedUntilTheBudgetEndsIsStoreUnavailableAndNothingIsStored(Layout layout, Fault refusal) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    faults.always(layout.appendRequest(true), refusal);

    StoreUnavailableException e = assertInstanceOf(StoreUnavailableException.class,
        failureOf(counters.transact(id, "c-1", c -> c.increment("mine"))));

    assertEquals(SMALL.maxAttempts(), e.attempts(), e.getMessage());
    assertEquals(FailureKind.TRANSIENT, e.lastFailureKind());
    assertOnlyTheCreateIsStored(layout, id);
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void anUnknownOutcomeThenTransientCancellationsUntilTheBudgetEndsIsOutcomeUnknownAndNothingIsStored(
      Layout layout) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    faults.enqueue(TransactWriteItemsRequest.class, Fault.SERVER_ERROR);
    faults.always(TransactWriteItemsRequest.class, Fault.TRANSACTION_CONFLICT);

    AppendOutcomeUnknownException e = assertInstanceOf(AppendOutcomeUnknownException.class,
        failureOf(counters.transact(id, "c-1", c -> c.increment("mine"))));

    assertEquals(1, e.expectedVersion());
    assertOnlyTheCreateIsStored(layout, id);
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aTransactionOfUnknownOutcomeThenThrottledUntilTheBudgetEndsIsOutcomeUnknownNotNothingWritten(Layout layout) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    faults.enqueue(TransactWriteItemsRequest.class, Fault.SERVER_ERROR);
    faults.always(TransactWriteItemsRequest.class, Fault.THROTTLED);

    assertInstanceOf(AppendOutcomeUnknownException.class,
        failureOf(counters.transact(id, "c-1", c -> c.increment("mine"))));
    assertOnlyTheCreateIsStored(layout, id);
  }

  @ParameterizedTest
  @EnumSource(value = Layout.class, names = {"TIP", "TIP_CALVING"})
  void aTipAppendOfUnknownOutcomeThenThrottledUntilTheBudgetEndsIsOutcomeUnknownNotNothingWritten(Layout layout) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    faults.enqueue(UpdateItemRequest.class, Fault.SERVER_ERROR);
    faults.always(UpdateItemRequest.class, Fault.THROTTLED);

    AppendOutcomeUnknownException e = assertInstanceOf(AppendOutcomeUnknownException.class,
        failureOf(counters.transact(id, c -> c.increment("mine"))));
    assertEquals(1, e.expectedVersion());
    assertOnlyTheCreateIsStored(layout, id);
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void readsFailingUntilTheBudgetEndsAreStoreUnavailableAndNothingIsStored(Layout layout) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    faults.always(GetItemRequest.class, Fault.TIMEOUT_BEFORE_SEND).always(QueryRequest.class, Fault.SERVER_ERROR);
    AtomicInteger decided = new AtomicInteger();

    StoreUnavailableException e = assertInstanceOf(StoreUnavailableException.class,
        failureOf(counters.transact(id, "c-1", c -> {
          decided.incrementAndGet();
          return c.increment("mine");
        })));

    assertEquals(FailureKind.OUTCOME_UNKNOWN, e.lastFailureKind());
    assertEquals(0, decided.get());
    assertOnlyTheCreateIsStored(layout, id);
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void aLostResponseThatReadingBackSettlesIsReportedAsOneFailedAttemptOfUnknownOutcome(
      Layout layout, boolean withCommandId) {
    RecordingListener listener = new RecordingListener();
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL, listener);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    faults.enqueue(layout.appendRequest(withCommandId), Fault.LOST_RESPONSE);

    Versioned<Counter> appended = await(withCommandId
        ? counters.transact(id, "lost-1", c -> c.increment("mine"))
        : counters.transact(id, c -> c.increment("mine")));

    assertEquals(1, faults.injected().get(Fault.LOST_RESPONSE));
    assertEquals(2, appended.version());
    assertEquals(List.of(FailureKind.OUTCOME_UNKNOWN),
        listener.failedAttempts().stream().map(FailedAttempt::kind).toList());
    OperationMetrics transact = listener.operations().stream()
        .filter(m -> m.operation().equals("transact")).findFirst().orElseThrow();
    assertEquals(1, transact.unknownOutcomes(), transact.toString());
    assertEquals(1, whole(layout, id).count(new Incremented(1, "mine")));
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aTransactionCancelledOnlyForTransientReasonsIsSentAgainNotReportedAsAConflict(Layout layout) {
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = async(layout, faults, SMALL);
    CounterId id = CounterId.random();
    layout.counters(TestDynamo.store()).create(new CounterCreated(id, "c"));
    faults.enqueue(TransactWriteItemsRequest.class,
        Fault.TRANSACTION_CONFLICT, Fault.THROTTLED_CANCELLATION, Fault.TRANSACTION_CONFLICT);

    Versioned<Counter> appended =
        await(counters.append(id, 1, "cancelled-3-times", List.of(new Incremented(1, "mine"))));

    assertEquals(2, appended.version());
    StoredStream stored = whole(layout, id);
    assertEquals(1, stored.count(new Incremented(1, "mine")));
    assertEquals(2, stored.appends().size());
  }

  // ---------------------------------------------------------------------------------------------------

  private AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> async(
      Layout layout, FaultInjector injector, RetryPolicy policy) {
    return async(layout, injector, policy, StoreListener.NONE);
  }

  private AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> async(
      Layout layout, FaultInjector injector, RetryPolicy policy, StoreListener listener) {
    DynamoDbAsyncClient client = AsyncDynamo.client(injector);
    clients.add(client);
    AsyncEventStore store = DynamoDbAsyncEventStore.create(client,
        StoreConfig.defaults().withRetryPolicy(policy).withListener(listener));
    return new AsyncEventSourcedRepository<>(store, layout.counters(TestDynamo.store()).definition()) {};
  }

  static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("failed: " + e.getCause(), e.getCause());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static Throwable failureOf(CompletableFuture<?> future) {
    try {
      Object value = future.get(60, TimeUnit.SECONDS);
      throw new AssertionError("completed with " + value);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static void assertOnlyTheCreateIsStored(Layout layout, CounterId id) {
    StoredStream stored = whole(layout, id);
    assertEquals(1, stored.appends().size());
    assertEquals(Optional.empty(), StoredStreams.commandRecord(CounterRepository.NAME, id.value(), "c-1"));
  }

  static StoredStream whole(Layout layout, CounterId id) {
    CounterRepository counters = layout.counters(TestDynamo.store());
    StoredStream stored = StoredStreams.read(counters.definition(), id.value());
    assertEquals(List.of(), stored.defects());
    assertFalse(stored.appends().isEmpty());
    assertTrue(stored.fold(counters.definition()).isPresent());
    return stored;
  }
}
