package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.RetryPolicy;
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
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * One fault at a time, on every layout: each scenario checks what the caller is told against what is
 * stored, read raw from the tables.
 */
class FaultScenariosTest {

  /** Small enough for a test to run it out: 4 attempts, 15 s. */
  private static final RetryPolicy SMALL = new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(15));

  private final FaultInjector faults = FaultInjector.builder(8).build();
  private final RecordingListener attempts = new RecordingListener();

  static List<Arguments> layoutsWithAndWithoutCommandIds() {
    return Layout.each(false, true);
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void anAppendWhoseResponseIsLostWhileTwelveOthersAppendIsStoredOnce(Layout layout, boolean withCommandId) {
    CounterRepository counters = layout.counters(faultyStore(Contention.PATIENT));
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

    Versioned<Counter> appended = withCommandId
        ? counters.transact(id, "mine", c -> c.increment("mine"))
        : counters.transact(id, c -> c.increment("mine"));

    assertEquals(1, faults.injected().get(Fault.LOST_RESPONSE_AFTER_OTHERS));
    assertEquals(1, faults.appliedWrites());
    // the state this writer wrote, not the newer one
    assertEquals(2, appended.version());
    assertEquals(1, appended.state().value());
    StoredStream stored = whole(counters, id);
    assertEquals(14, stored.appends().size());
    assertEquals(List.of(new Incremented(1, "mine")), stored.appends().get(1).events());
    assertEquals(1, stored.count(new Incremented(1, "mine")));
    if (layout == Layout.TIP_CALVING) {
      assertTrue(stored.items() > 2, "the append was calved into a batch: " + stored.items() + " items");
    }
    if (withCommandId) {
      assertEquals(stored.appends().get(1).appendId(), commandAppendId(counters, id, "mine"));
    }
    assertEquals(14, counters.loadVersioned(id).version());
    assertEquals(faults.executions(), faults.transmissions(), "the SDK retried by itself");
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void aCreateWhoseResponseIsLostWhileOthersAppendSucceedsOnce(Layout layout, boolean withCommandId) {
    CounterRepository counters = layout.counters(faultyStore(Contention.PATIENT));
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

    Versioned<Counter> created = withCommandId
        ? counters.create("create-" + id.value(), List.of(creating))
        : counters.create(creating);

    assertEquals(1, faults.injected().get(Fault.LOST_RESPONSE_AFTER_OTHERS));
    assertEquals(1, created.version());
    assertEquals(new Counter(id, "c", 0, 0, ""), created.state());
    StoredStream stored = whole(counters, id);
    assertEquals(7, stored.appends().size());
    assertEquals(List.of(creating), stored.appends().get(0).events());
    assertEquals(1, stored.count(creating));
    if (withCommandId) {
      assertEquals(stored.appends().get(0).appendId(), commandAppendId(counters, id, "create-" + id.value()));
      // Repeated: the stored stream comes back, nothing is written.
      Versioned<Counter> repeated = counters.create("create-" + id.value(), List.of(creating));
      assertEquals(7, repeated.version());
      assertEquals(7, whole(counters, id).appends().size());
    }
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aCommandRepeatedAfterARestartReturnsTheStoredResultWithoutDeciding(Layout layout) {
    CounterRepository before = layout.counters(faultyStore(Contention.PATIENT));
    CounterId id = CounterId.random();
    before.create(new CounterCreated(id, "c"));
    faults.enqueue(layout.appendRequest(true), Fault.LOST_RESPONSE);
    before.transact(id, "deposit-1", c -> c.increment("deposit-1"));
    before.transact(id, c -> c.increment("later"));
    assertEquals(1, faults.injected().get(Fault.LOST_RESPONSE));

    // A new process: another client, store and repository; only DynamoDB remembers.
    CounterRepository after = layout.counters(FaultyDynamo.store(
        FaultyDynamo.client(FaultInjector.builder(9).build()), Contention.PATIENT));
    AtomicInteger decided = new AtomicInteger();
    Versioned<Counter> repeated = after.transact(id, "deposit-1", c -> {
      decided.incrementAndGet();
      return c.increment("deposit-1");
    });

    assertEquals(0, decided.get(), "decide was called for a stored command");
    assertEquals(3, repeated.version());
    assertEquals(2, repeated.state().value());
    StoredStream stored = whole(after, id);
    assertEquals(1, stored.count(new Incremented(1, "deposit-1")));
    assertEquals(3, stored.appends().size());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void twoThreadsRunningTheSameCommandIdStoreItOnce(Layout layout) throws Exception {
    CounterRepository counters = layout.counters(faultyStore(Contention.PATIENT));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    CyclicBarrier bothDecided = new CyclicBarrier(2);
    AtomicInteger decided = new AtomicInteger();
    Function<Counter, List<CounterEvent>> decide = c -> {
      decided.incrementAndGet();
      await(bothDecided);
      return c.increment("once");
    };

    List<Versioned<Counter>> results = concurrently(2, () -> counters.transact(id, "once", decide));

    assertEquals(2, decided.get(), "both threads decided on the same state");
    for (Versioned<Counter> result : results) {
      assertEquals(2, result.version());
      assertEquals(1, result.state().value());
    }
    StoredStream stored = whole(counters, id);
    assertEquals(1, stored.count(new Incremented(1, "once")));
    assertEquals(2, stored.appends().size());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void fourThreadsRunningTheSameCommandIdsUnderFaultsStoreEachOnce(Layout layout) throws Exception {
    FaultInjector random = FaultInjector.builder(10)
        .rate(Fault.LOST_RESPONSE, 0.1).rate(Fault.TIMEOUT_AFTER_APPLY, 0.05).rate(Fault.SERVER_ERROR, 0.05)
        .rate(Fault.THROTTLED, 0.05).rate(Fault.TRANSACTION_CONFLICT, 0.05)
        .build();
    CounterRepository counters = layout.counters(FaultyDynamo.store(FaultyDynamo.client(random), Contention.PATIENT));
    CounterRepository clean = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    clean.create(new CounterCreated(id, "c"));
    int rounds = 8;
    for (int round = 0; round < rounds; round++) {
      String command = "command-" + round;
      List<Versioned<Counter>> results = concurrently(4, () -> counters.transact(id, command, c -> c.increment(command)));
      long version = results.get(0).version();
      for (Versioned<Counter> result : results) {
        assertEquals(round + 2, result.version(), "every try returns the stream as the command left it");
        assertEquals(version, result.version());
      }
    }

    assertTrue(random.injectedTotal() > 0);
    StoredStream stored = whole(clean, id);
    for (int round = 0; round < rounds; round++) {
      assertEquals(1, stored.count(new Incremented(1, "command-" + round)), "command-" + round);
    }
    assertEquals(rounds + 1, stored.appends().size());
  }

  static List<Arguments> layoutsAndTransientCancellations() {
    List<Arguments> arguments = new ArrayList<>();
    for (Layout layout : Layout.values()) {
      arguments.add(Arguments.of(layout, Fault.TRANSACTION_CONFLICT, "TransactionConflict"));
      arguments.add(Arguments.of(layout, Fault.THROTTLED_CANCELLATION, "ThrottlingError"));
    }
    return arguments;
  }

  @ParameterizedTest
  @MethodSource("layoutsAndTransientCancellations")
  void aTransactionCancelledOnlyForTransientReasonsIsSentAgainNotReportedAsAConflict(
      Layout layout, Fault cancellation, String reason) {
    // An explicit expected version: a cancellation taken for a conflict would be thrown at once.
    CounterRepository counters = layout.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    attempts.failedAttempts().clear();
    faults.enqueue(TransactWriteItemsRequest.class, cancellation, cancellation, cancellation);

    Versioned<Counter> appended = counters.append(id, 1, "cancelled-3-times", List.of(new Incremented(1, "mine")));

    assertEquals(3, faults.injected().get(cancellation), reason);
    assertEquals(2, appended.version());
    assertEquals(List.of(FailureKind.TRANSIENT, FailureKind.TRANSIENT, FailureKind.TRANSIENT),
        attempts.failedAttempts().stream().map(FailedAttempt::kind).toList());
    StoredStream stored = whole(counters, id);
    assertEquals(1, stored.count(new Incremented(1, "mine")));
    assertEquals(2, stored.appends().size());
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void aLostResponseThatReadingBackSettlesIsReportedAsOneFailedAttemptOfUnknownOutcome(
      Layout layout, boolean withCommandId) {
    CounterRepository counters = layout.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    attempts.failedAttempts().clear();
    attempts.operations().clear();
    faults.enqueue(layout.appendRequest(withCommandId), Fault.LOST_RESPONSE);

    Versioned<Counter> appended = transact(
        counters, id, withCommandId ? Optional.of("lost-1") : Optional.empty(), c -> c.increment("mine"));

    assertEquals(1, faults.injected().get(Fault.LOST_RESPONSE));
    assertEquals(2, appended.version());
    // Whether settled by a resend with the transaction's token or by reading the tip back, the lost
    // response was a failed attempt: the listener hears of it, as docs/metrics.md says.
    assertEquals(List.of(FailureKind.OUTCOME_UNKNOWN), attempts.failedAttempts().stream().map(FailedAttempt::kind).toList());
    OperationMetrics transact = attempts.operations().stream()
        .filter(m -> m.operation().equals("transact")).findFirst().orElseThrow();
    assertEquals(1, transact.unknownOutcomes(), transact.toString());
    assertEquals(1, whole(counters, id).count(new Incremented(1, "mine")));
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void unknownOutcomesOfAnAppendNotAppliedUntilTheBudgetEndsAreReportedAsUnknownAndNothingIsStored(
      Layout layout, boolean withCommandId) {
    CounterRepository counters = layout.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    faults.always(layout.appendRequest(withCommandId), Fault.SERVER_ERROR);

    AppendOutcomeUnknownException e = assertThrows(AppendOutcomeUnknownException.class, () -> transact(
        counters, id, withCommandId ? Optional.of("c-1") : Optional.empty(), c -> c.increment("mine")));

    assertNamesTheAppend(e, id, withCommandId);
    assertEquals(SMALL.maxAttempts(), faults.injected().get(Fault.SERVER_ERROR));
    StoredStream stored = whole(counters, id);
    assertEquals(1, stored.appends().size());
    assertFalse(stored.appends().stream().anyMatch(a -> a.appendId().equals(e.appendId())));
    assertEquals(Optional.empty(), StoredStreams.commandRecord(CounterRepository.NAME, id.value(), "c-1"));

    faults.clear();
    if (withCommandId) {
      AtomicInteger decided = new AtomicInteger();
      Versioned<Counter> repeated = restarted(layout).transact(id, "c-1", c -> {
        decided.incrementAndGet();
        return c.increment("mine");
      });
      assertEquals(1, decided.get(), "the command was not stored, so the repeat decides");
      assertEquals(2, repeated.version());
      assertEquals(1, whole(counters, id).count(new Incremented(1, "mine")));
    }
  }

  @ParameterizedTest
  @MethodSource("layoutsWithAndWithoutCommandIds")
  void anAppendAppliedWhoseOutcomeStaysUnknownUntilTheBudgetEndsIsStoredOnceAndARepeatDoesNotDecide(
      Layout layout, boolean withCommandId) {
    CounterRepository counters = layout.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    Class<? extends SdkRequest> append = layout.appendRequest(withCommandId);
    faults.enqueue(append, Fault.LOST_RESPONSE_AFTER_OTHERS);
    // After DynamoDB applied the append, nothing gets through any more: resends and read-backs fail.
    faults.onLostResponse(request -> faults
        .always(append, Fault.SERVER_ERROR)
        .always(GetItemRequest.class, Fault.SERVER_ERROR)
        .always(QueryRequest.class, Fault.SERVER_ERROR));

    AppendOutcomeUnknownException e = assertThrows(AppendOutcomeUnknownException.class, () -> transact(
        counters, id, withCommandId ? Optional.of("c-1") : Optional.empty(), c -> c.increment("mine")));

    assertNamesTheAppend(e, id, withCommandId);
    assertEquals(1, faults.appliedWrites());
    StoredStream stored = whole(counters, id);
    assertEquals(2, stored.appends().size());
    assertEquals(new StoredAppend(e.appendId(), List.of(new Incremented(1, "mine"))), stored.appends().get(1));
    if (withCommandId) {
      assertEquals(e.appendId(), commandAppendId(counters, id, "c-1"));
      faults.clear();
      AtomicInteger decided = new AtomicInteger();
      Versioned<Counter> repeated = restarted(layout).transact(id, "c-1", c -> {
        decided.incrementAndGet();
        return c.increment("mine");
      });
      assertEquals(0, decided.get(), "the command was stored, so the repeat must not decide");
      assertEquals(2, repeated.version());
      assertEquals(1, repeated.state().value());
      assertEquals(2, whole(counters, id).appends().size());
    }
  }

  static List<Arguments> layoutsAndRefusals() {
    return Layout.each(Fault.THROTTLED, Fault.TRANSACTION_CONFLICT);
  }

  @ParameterizedTest
  @MethodSource("layoutsAndRefusals")
  void anAppendRefusedUntilTheBudgetEndsIsStoreUnavailableAndNothingIsStored(Layout layout, Fault refusal) {
    CounterRepository counters = layout.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    faults.always(layout.appendRequest(true), refusal);

    StoreUnavailableException e = assertThrows(StoreUnavailableException.class,
        () -> counters.transact(id, "c-1", c -> c.increment("mine")));

    assertEquals(SMALL.maxAttempts(), e.attempts(), e.getMessage());
    assertEquals(FailureKind.TRANSIENT, e.lastFailureKind());
    assertEquals(SMALL.maxAttempts(), faults.injected().get(refusal));
    assertOnlyTheCreateIsStored(counters, id);
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void anUnknownOutcomeThenTransientCancellationsUntilTheBudgetEndsIsOutcomeUnknownAndNothingIsStored(
      Layout layout) {
    // The first attempt fails without being applied, but esgen cannot know; the resends are cancelled for
    // transaction conflicts until the budget ends, and reading back shows nothing stored yet. A conflict
    // says nothing of the first attempt, which could still commit (LateAttemptOfUnknownOutcomeTest), so
    // the outcome is unknown rather than "nothing written".
    CounterRepository counters = layout.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    faults.enqueue(TransactWriteItemsRequest.class, Fault.SERVER_ERROR);
    faults.always(TransactWriteItemsRequest.class, Fault.TRANSACTION_CONFLICT);

    AppendOutcomeUnknownException e = assertThrows(AppendOutcomeUnknownException.class,
        () -> counters.transact(id, "c-1", c -> c.increment("mine")));

    assertEquals(1, e.expectedVersion());
    assertEquals(SMALL.maxAttempts(), faults.injected().get(Fault.TRANSACTION_CONFLICT) + 1);
    assertOnlyTheCreateIsStored(counters, id);
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aCommandStoredByAConcurrentTryWhileThisTrysFirstAttemptTimedOutAnswersWithTheStoredStream(Layout layout) {
    // The same command reaches two servers; this one's first attempt times out before it is sent, the
    // other stores the command, and this one's resend is cancelled on the stream and the command record.
    RaceBeforeFirstTransaction race = new RaceBeforeFirstTransaction();
    CounterRepository counters = layout.counters(FaultyDynamo.store(TestDynamo.clientWith(race), SMALL));
    CounterRepository other = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    race.first = () -> other.create("c-1", List.of(new CounterCreated(id, "c")));

    Versioned<Counter> created = counters.create("c-1", List.of(new CounterCreated(id, "c")));

    assertEquals(other.loadVersioned(id), created, "the stream the other try stored");
    race.first = () -> other.append(id, 1, "c-2", List.of(new Incremented(1, "once")));

    Versioned<Counter> appended = counters.append(id, 1, "c-2", List.of(new Incremented(1, "once")));

    assertEquals(other.loadVersioned(id), appended);
    assertEquals(List.of(new CounterCreated(id, "c"), new Incremented(1, "once")), whole(counters, id).events(),
        "each command stored once");
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aTransactionOfUnknownOutcomeThenThrottledUntilTheBudgetEndsIsOutcomeUnknownNotNothingWritten(Layout layout) {
    // A throttled resend (or one answered TransactionInProgress) was not looked at by DynamoDB: unlike a
    // cancellation it does not settle the first attempt, which may still commit after the read-back.
    CounterRepository counters = layout.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    faults.enqueue(TransactWriteItemsRequest.class, Fault.SERVER_ERROR);
    faults.always(TransactWriteItemsRequest.class, Fault.THROTTLED);

    AppendOutcomeUnknownException e = assertThrows(AppendOutcomeUnknownException.class,
        () -> counters.transact(id, "c-1", c -> c.increment("mine")));

    assertEquals(1, e.expectedVersion());
    assertOnlyTheCreateIsStored(counters, id);
  }

  @Test
  void aTipAppendOfUnknownOutcomeThenThrottledUntilTheBudgetEndsIsOutcomeUnknownNotNothingWritten() {
    // A single-item tip write has no token: after an attempt of unknown outcome that the read-back did not
    // find, a later refusal cannot prove that attempt will never be applied, so esgen must not say
    // "nothing was written".
    CounterRepository counters = Layout.TIP.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    faults.enqueue(UpdateItemRequest.class, Fault.SERVER_ERROR);
    faults.always(UpdateItemRequest.class, Fault.THROTTLED);

    AppendOutcomeUnknownException e = assertThrows(AppendOutcomeUnknownException.class,
        () -> counters.transact(id, c -> c.increment("mine")));

    assertEquals(1, e.expectedVersion());
    assertEquals(StoreUnavailableException.class, e.getSuppressed()[0].getClass());
    assertOnlyTheCreateIsStored(counters, id);
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void readsFailingUntilTheBudgetEndsAreStoreUnavailableAndNothingIsStored(Layout layout) {
    CounterRepository counters = layout.counters(faultyStore(SMALL));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    faults.always(GetItemRequest.class, Fault.TIMEOUT_BEFORE_SEND).always(QueryRequest.class, Fault.SERVER_ERROR);
    AtomicInteger decided = new AtomicInteger();

    StoreUnavailableException e = assertThrows(StoreUnavailableException.class, () -> counters.transact(id, "c-1", c -> {
      decided.incrementAndGet();
      return c.increment("mine");
    }));

    assertEquals(FailureKind.OUTCOME_UNKNOWN, e.lastFailureKind());
    assertEquals(0, decided.get());
    assertOnlyTheCreateIsStored(counters, id);
  }

  private void assertOnlyTheCreateIsStored(CounterRepository counters, CounterId id) {
    StoredStream stored = whole(counters, id);
    assertEquals(1, stored.appends().size());
    assertEquals(List.of(new CounterCreated(id, "c")), stored.events());
    assertEquals(Optional.empty(), StoredStreams.commandRecord(CounterRepository.NAME, id.value(), "c-1"));
  }

  private static void assertNamesTheAppend(AppendOutcomeUnknownException e, CounterId id, boolean withCommandId) {
    assertEquals(CounterRepository.NAME, e.aggregateName());
    assertEquals(id.value(), e.aggregateId());
    assertEquals(1, e.expectedVersion());
    assertEquals(withCommandId ? Optional.of("c-1") : Optional.empty(), e.commandId());
    String message = e.getMessage();
    assertTrue(message.contains("append " + e.appendId() + " to counter " + id.value() + " at version 1"), message);
    assertEquals(withCommandId, message.contains("(command c-1)"), message);
  }

  private static Versioned<Counter> transact(CounterRepository counters, CounterId id, Optional<String> commandId,
      Function<Counter, List<CounterEvent>> decide) {
    return commandId.isPresent() ? counters.transact(id, commandId.get(), decide) : counters.transact(id, decide);
  }

  /** The repository of a freshly started process, without faults. */
  private static CounterRepository restarted(Layout layout) {
    return layout.counters(FaultyDynamo.store(FaultyDynamo.client(FaultInjector.builder(0).build()), SMALL));
  }

  private DynamoDbEventStore faultyStore(RetryPolicy policy) {
    return FaultyDynamo.store(FaultyDynamo.client(faults), policy, attempts);
  }

  /** The stream as stored, after checking that it is whole. */
  private static StoredStream whole(CounterRepository counters, CounterId id) {
    StoredStream stored = StoredStreams.read(counters.definition(), id.value());
    assertEquals(List.of(), stored.defects());
    assertEquals(stored.fold(counters.definition()).orElseThrow(), TestDynamo.internals(TestDynamo.store()).layoutFor(counters.definition())
        .load(counters.definition(), id).orElseThrow().state(), "the loaded state is the stored events' fold");
    return stored;
  }

  private static String commandAppendId(CounterRepository counters, CounterId id, String commandId) {
    Map<String, AttributeValue> record =
        StoredStreams.commandRecord(counters.definition().name(), id.value(), commandId).orElseThrow();
    return record.get("append_id").s();
  }

  private static <T> List<T> concurrently(int threads, java.util.concurrent.Callable<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(task));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(60, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
