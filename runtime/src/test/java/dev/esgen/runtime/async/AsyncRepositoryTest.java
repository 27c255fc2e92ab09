package dev.esgen.runtime.async;

import static dev.esgen.runtime.testing.AsyncStoreFixture.allPages;
import static dev.esgen.runtime.testing.AsyncStoreFixture.attempts;
import static dev.esgen.runtime.testing.AsyncStoreFixture.await;
import static dev.esgen.runtime.testing.AsyncStoreFixture.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.RetryPolicy;
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
import dev.esgen.runtime.counter.NoteFirstReplay;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.InvalidCommandIdException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.error.ValueNotFoundException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncFaults;
import dev.esgen.runtime.testing.AsyncFaults.Fault;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * The asynchronous repository against DynamoDB Local, faults injected into its async client: what it
 * stores, what its futures fail with, and that retries wait on the delayed executor, not on a thread.
 */
class AsyncRepositoryTest {

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  private AsyncCounterRepository counters(StoreConfig config) {
    return new AsyncCounterRepository(async.store(config));
  }

  private AsyncCounterRepository counters() {
    return counters(StoreConfig.defaults());
  }

  /** What a synchronous repository of another store reads: what is stored, not what a cache holds. */
  private static IndexedCounterRepository stored() {
    return new IndexedCounterRepository(TestDynamo.store(), LayoutKind.JOURNAL, 0);
  }

  private static List<RecordedEvent<CounterEvent>> storedEvents(CounterId id) {
    try (var events = stored().events(id)) {
      return events.toList();
    }
  }

  private static CounterId freshId() {
    return new CounterId("async-" + UUID.randomUUID());
  }

  @Test
  void createAppendTransactAndReadsStoreWhatTheSyncRepositoryReads() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();

    Versioned<Counter> created = await(counters.create(new CounterCreated(id, "async")));
    Versioned<Counter> appended = await(counters.append(id, created.version(), List.of(new Incremented(2, "a"))));
    Versioned<Counter> transacted = await(counters.transact(id,
        AppendOptions.metadata(EventMetadata.none().withActor("teller-7")), counter -> counter.increment("t")));

    assertEquals(3, transacted.version());
    assertEquals(3, transacted.state().value());
    assertEquals(transacted.state(), stored().load(id));
    List<RecordedEvent<CounterEvent>> events = storedEvents(id);
    assertEquals(List.of(new CounterCreated(id, "async"), new Incremented(2, "a"), new Incremented(1, "t")),
        events.stream().map(RecordedEvent::event).toList());
    assertEquals(Optional.of("teller-7"), events.get(2).metadata().actor());
    assertEquals(2, appended.version());

    assertEquals(Optional.of(transacted.state()), await(counters.findById(id)));
    assertEquals(transacted.state(), await(counters.load(id, ReadOptions.eventual())));
    assertEquals(3, await(counters.loadVersioned(id)).version());
    assertEquals(Optional.of(3L), await(counters.findVersioned(id, ReadOptions.strong())).map(Versioned::version));
    assertEquals(Optional.empty(), await(counters.findById(freshId())));
  }

  @Test
  void anAppendOnALoadedVersionedIsOneRequestAndEventsAfterTheSnapshotAreFolded() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();
    Versioned<Counter> current = await(counters.create(new CounterCreated(id, "folded")));
    // Snapshots every 5 events: 7 increments leave events after the last snapshot for a load to fold.
    for (int i = 0; i < 7; i++) {
      async.operations().clear();
      current = await(counters.append(current, List.of(new Incremented(1, "n" + i))));
      assertEquals(1, async.operations().get(0).requests(),
          "an append on what this repository returned sends one request");
    }
    assertEquals(7, await(counters.load(id)).value());
    assertEquals(stored().load(id), await(counters.load(id)));
  }

  @Test
  void futuresFailWithEsgensExceptionsUnwrapped() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "unwrapped")));

    CompletableFuture<Versioned<Counter>> stale = counters.append(id, 7, List.of(new Incremented(1)));
    VersionConflictException conflict = assertInstanceOf(VersionConflictException.class, failureOf(stale));
    assertEquals(7, conflict.expectedVersion());
    AtomicReference<Throwable> seen = new AtomicReference<>();
    stale.whenComplete((value, failure) -> seen.set(failure)).exceptionally(failure -> null).join();
    assertSame(conflict, seen.get(), "whenComplete sees the exception itself");
    CompletionException joined = assertThrows(CompletionException.class, stale::join);
    assertSame(conflict, joined.getCause());

    assertInstanceOf(AggregateNotFoundException.class, failureOf(counters.load(freshId())));
    assertInstanceOf(AggregateAlreadyExistsException.class,
        failureOf(counters.create(new CounterCreated(id, "again"))));
    assertInstanceOf(IllegalStateException.class,
        failureOf(counters.transact(id, counter -> {
          throw new IllegalStateException("rejected by the decision");
        })));
  }

  @Test
  void badInputFailsTheFutureWithoutThrowingOrWriting() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "bad input")));
    int before = storedEvents(id).size();
    async.faults().clear();

    CompletableFuture<Versioned<Counter>> empty = counters.create(List.of());
    CompletableFuture<Versioned<Counter>> noCommand = counters.transact(id, "", counter -> counter.increment("x"));
    CompletableFuture<Versioned<Counter>> tooLarge =
        counters.append(id, 1, List.of(new Noted("x".repeat(500 * 1024))));

    CompletableFuture<Versioned<Counter>> nullEvent = counters.create((CounterEvent) null);
    CompletableFuture<Versioned<Counter>> nullList = counters.append(id, 1, (List<CounterEvent>) null);
    CompletableFuture<Versioned<Counter>> nullCreate = counters.create((List<CounterEvent>) null);
    CompletableFuture<Versioned<Counter>> nullDecision = counters.transact(id, counter -> null);

    assertInstanceOf(IllegalArgumentException.class, failureOf(empty));
    String name = counters.definition().name();
    assertEquals(name + ": event 1 of 1 is null",
        assertInstanceOf(NullPointerException.class, failureOf(nullEvent)).getMessage());
    assertEquals(name + ": the events are null",
        assertInstanceOf(NullPointerException.class, failureOf(nullList)).getMessage());
    assertEquals(name + ": the events are null",
        assertInstanceOf(NullPointerException.class, failureOf(nullCreate)).getMessage());
    assertEquals(name + ": the decision returned null; return List.of() to append nothing",
        assertInstanceOf(NullPointerException.class, failureOf(nullDecision)).getMessage());
    assertInstanceOf(InvalidCommandIdException.class, failureOf(noCommand));
    assertEquals("ItemTooLargeException", failureOf(tooLarge).getClass().getSimpleName());
    assertEquals(before, storedEvents(id).size(), "nothing is written");
    assertFalse(async.faults().started().stream().anyMatch(s -> s.operation().equals("TransactWriteItems")),
        "no write was sent");
  }

  @Test
  void aCommandIdIsAppliedOnce() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "command")));
    AtomicInteger decisions = new AtomicInteger();

    Versioned<Counter> first = await(counters.transact(id, "deposit-1", counter -> {
      decisions.incrementAndGet();
      return counter.increment("once");
    }));
    Versioned<Counter> repeat = await(counters.transact(id, "deposit-1", counter -> {
      decisions.incrementAndGet();
      return counter.increment("twice");
    }));

    assertEquals(1, decisions.get(), "a repeat does not decide again");
    assertEquals(first.version(), repeat.version());
    assertEquals(1, storedEvents(id).stream().filter(e -> e.event() instanceof Incremented).count());
  }

  @Test
  void aLostResponseIsSettledByReadingBackAndStoredOnce() {
    // Two attempts: both responses lost (DynamoDB applies the token's transaction once), then the budget is
    // spent and reading the append id back decides.
    AsyncCounterRepository counters = counters(attempts(2, 5));
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "lost")));
    async.faults().clear();
    async.faults().enqueue(TransactWriteItemsRequest.class, Fault.LOST_RESPONSE, Fault.LOST_RESPONSE);

    Versioned<Counter> written = await(counters.transact(id, counter -> counter.increment("lost-once")));

    assertEquals(2, written.version());
    List<String> sent = async.sent();
    assertEquals(List.of("GetItem", "TransactWriteItems", "TransactWriteItems", "GetItem"), sent,
        "load, two attempts of unknown outcome, the read-back");
    List<RecordedEvent<CounterEvent>> events = storedEvents(id);
    assertEquals(1, events.stream().filter(e -> e.event().equals(new Incremented(1, "lost-once"))).count());
    assertEquals(2, events.size());
  }

  @Test
  void anOutcomeThatCannotBeReadBackIsUnknownAndACommandIdSettlesIt() {
    AsyncCounterRepository counters = counters(attempts(2, 5));
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "unknown")));
    async.faults().clear();
    async.faults().enqueue(TransactWriteItemsRequest.class, Fault.LOST_RESPONSE, Fault.LOST_RESPONSE);
    // The load before deciding and the command lookup go through; every read-back attempt fails.
    async.faults().enqueue(GetItemRequest.class, Fault.NONE, Fault.NONE, Fault.SERVER_ERROR);

    CompletableFuture<Versioned<Counter>> first = counters.transact(id, "cmd-unknown", c -> c.increment("maybe"));
    AppendOutcomeUnknownException unknown = assertInstanceOf(AppendOutcomeUnknownException.class, failureOf(first));
    assertEquals(Optional.of("cmd-unknown"), unknown.commandId());
    // The response was lost, not the write: it is stored, which "unknown" allows.
    assertEquals(1, storedEvents(id).stream().filter(e -> e.event().equals(new Incremented(1, "maybe"))).count());

    async.faults().clear();
    Versioned<Counter> repeated = await(counters.transact(id, "cmd-unknown", c -> c.increment("maybe")));
    assertEquals(2, repeated.version());
    assertEquals(1, storedEvents(id).stream().filter(e -> e.event().equals(new Incremented(1, "maybe"))).count(),
        "the repeat found the command applied and wrote nothing");
  }

  @Test
  void throttlingIsRetriedFromTheDelayedExecutorWithoutBlockingTheCaller() {
    AsyncCounterRepository counters = counters(attempts(5, 50));
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "throttled")));
    async.faults().clear();
    async.failedAttempts().clear();
    async.faults().enqueue(TransactWriteItemsRequest.class, Fault.THROTTLED, Fault.THROTTLED);
    String caller = Thread.currentThread().getName();

    Versioned<Counter> written = await(counters.transact(id, counter -> counter.increment("after-throttling")));

    assertEquals(2, written.version());
    List<AsyncFaults.Started> writes = async.faults().started().stream()
        .filter(s -> s.operation().equals("TransactWriteItems")).toList();
    assertEquals(3, writes.size(), "two throttled attempts and the one that went through");
    for (AsyncFaults.Started resend : writes.subList(1, 3)) {
      assertTrue(resend.thread().startsWith("ForkJoinPool.commonPool-worker"),
          "a resend is sent by the delayed executor's target, not by a thread that waited: " + resend.thread());
      assertFalse(resend.thread().equals(caller));
    }
    assertEquals(2, async.failedAttempts().size());
    assertTrue(async.failedAttempts().stream().allMatch(f -> f.retryAfter().isPresent()));
    assertEquals(2, storedEvents(id).size(), "stored once");
  }

  @Test
  void aSpentBudgetOnThrottlingSaysTheStoreIsUnavailableAndNothingIsWritten() {
    AsyncCounterRepository counters = counters(attempts(3, 5));
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "unavailable")));
    async.faults().always(TransactWriteItemsRequest.class, Fault.THROTTLED);

    StoreUnavailableException unavailable = assertInstanceOf(StoreUnavailableException.class,
        failureOf(counters.transact(id, counter -> counter.increment("never"))));

    assertEquals(3, unavailable.attempts());
    assertEquals(1, storedEvents(id).size(), "nothing written, as the exception says");
  }

  @Test
  void aValueTooLongToBeStoredIsFoundNowhereWithoutARequest() {
    AsyncCounterRepository counters = counters();
    String tooLong = "x".repeat(IndexKeys.KEY_LIMIT_BYTES);
    int before = async.operations().size();

    assertEquals(Optional.empty(), await(counters.findByNote(tooLong)));
    assertInstanceOf(ValueNotFoundException.class, failureOf(counters.loadByNote(tooLong)));
    assertEquals(List.of(), await(counters.listByName(tooLong, PageRequest.first(10))).items());
    assertEquals(0, async.operations().subList(before, async.operations().size()).stream()
        .mapToInt(OperationMetrics::requests).sum(), "appends refuse such a value, so nothing can hold it");
  }

  @Test
  void aHandlerThatRefusesTheCachedStateIsCheckedAgainstTheStoredOne() {
    StoreConfig cached = StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1)));
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> first = needingANote(async.store(cached));
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> second = needingANote(async.store(cached));
    CounterId id = freshId();
    await(first.create(new CounterCreated(id, "c")));                     // cached without a note
    await(second.append(id, 1, List.of(new Noted("n"))));                // another process adds one

    // The decision is the same on either state; the handler refuses it on the cached one only.
    Versioned<Counter> after = await(first.transact(id, counter -> counter.increment(NEEDS_A_NOTE)));
    assertEquals(3, after.version());
    assertEquals(1, after.state().value());
    OperationMetrics transact = async.operations().get(async.operations().size() - 1);
    assertEquals(2, transact.requests(), "a strongly consistent load, then the append");

    // Refused on what is stored, it reaches the caller, and nothing is written.
    CounterId noNote = freshId();
    await(first.create(new CounterCreated(noNote, "c")));
    Throwable refused = failureOf(first.transact(noNote, counter -> counter.increment(NEEDS_A_NOTE)));
    assertInstanceOf(IllegalStateException.class, refused);
    assertEquals(1, await(second.loadVersioned(noNote, ReadOptions.strong())).version());
  }

  private static final String NEEDS_A_NOTE = NoteFirstReplay.TAG;

  /**
   * Counters whose handler refuses an increment tagged {@link #NEEDS_A_NOTE} on a counter with no note,
   * snapshotted on every append so that a load is one request.
   */
  private static AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> needingANote(AsyncEventStore store) {
    return new AsyncEventSourcedRepository<>(store, CounterRepository.builder(
        "counter-needing-a-note", store.objectMapper(), SnapshotPolicy.every(1)).replay(new NoteFirstReplay()).build()) {};
  }

  @Test
  void concurrentAsyncWritersApplyEveryCommandOnce() {
    // Two stores, so neither learns the other's writes from a shared cache: they conflict for real.
    AsyncCounterRepository left = counters(StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1))));
    AsyncCounterRepository right = counters();
    CounterId id = freshId();
    await(left.create(new CounterCreated(id, "contended")));
    int commands = 24;

    List<CompletableFuture<Versioned<Counter>>> inFlight = new ArrayList<>();
    for (int i = 0; i < commands; i++) {
      AsyncCounterRepository writer = i % 2 == 0 ? left : right;
      String tag = "c" + i;
      inFlight.add(writer.transact(id, counter -> counter.increment(tag)));
    }
    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).orTimeout(60, TimeUnit.SECONDS).join();

    List<RecordedEvent<CounterEvent>> events = storedEvents(id);
    assertEquals(commands + 1, events.size());
    assertEquals(commands, events.stream().map(RecordedEvent::event).filter(Incremented.class::isInstance)
        .map(e -> ((Incremented) e).tag()).collect(Collectors.toSet()).size(), "every command once");
    Counter folded = CounterRepository.replay().create(events.get(0).event());
    for (RecordedEvent<CounterEvent> event : events.subList(1, events.size())) {
      folded = CounterRepository.replay().apply(folded, event.event());
    }
    assertEquals(folded, stored().load(id));
    assertEquals(commands, folded.value());
    assertTrue(async.operations().stream().anyMatch(m -> m.operation().equals("transact") && m.conflicts() > 0),
        "the writers did conflict");
  }

  @Test
  void asyncWritersOfOneStoreTakeTurnsOnAContendedStreamWithoutAThreadEach() {
    for (StoreConfig config : new StoreConfig[] {StoreConfig.defaults(),
        StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1)))}) {
      AsyncCounterRepository counters = counters(config);
      CounterId id = freshId();
      await(counters.create(new CounterCreated(id, "in turns")));
      int commands = 16;
      // The first burst decides on one state: all but one lose, and the stream counts as contended.
      int firstConflicts = burst(counters, id, "first", commands);
      assertTrue(firstConflicts >= 1, "the first burst did collide");
      // Now every command takes the stream's turn before deciding, each on what the one before left.
      // Backing off from each other instead (before turns), such a burst lost about 6 attempts per command.
      int inTurns = burst(counters, id, "second", commands);
      assertTrue(inTurns < commands / 4, "conflicts in turns: " + inTurns + " in " + commands + " commands");
      assertEquals(2 * commands, stored().load(id).value(), "every command once");
    }
  }

  @Test
  void syncAndAsyncWritersOfOneStoreStandInOneLine() throws Exception {
    // Waits in line up to the longest pause: long enough that a slow machine does not end a sync wait early.
    DynamoDbEventStore sync = DynamoDbEventStore.create(TestDynamo.client(), StoreConfig.defaults()
        .withRetryPolicy(new RetryPolicy(20, Duration.ofMillis(10), Duration.ofSeconds(30), Duration.ofSeconds(60))));
    IndexedCounterRepository syncCounters = new IndexedCounterRepository(sync, LayoutKind.JOURNAL, 0);
    AsyncCounterRepository asyncCounters = new AsyncCounterRepository(sync.withAsyncClient(async.client()));
    CounterId id = freshId();
    syncCounters.create(new CounterCreated(id, "one line"));
    int each = 6;
    ExecutorService threads = Executors.newFixedThreadPool(each);
    try {
      mixedBurst(syncCounters, asyncCounters, threads, id, "first", each);
      int inTurns = mixedBurst(syncCounters, asyncCounters, threads, id, "second", each);
      assertTrue(inTurns < each / 2, "conflicts in turns: " + inTurns + " in " + 2 * each + " commands");
    } finally {
      threads.shutdownNow();
    }
    assertEquals(4 * each, stored().load(id).value(), "every command once");
  }

  /**
   * {@code each} increments of {@code id} from threads of the synchronous repository and {@code each} from
   * the asynchronous one, all at once; returns how many decisions lost.
   */
  private static int mixedBurst(IndexedCounterRepository syncCounters, AsyncCounterRepository asyncCounters,
      ExecutorService threads, CounterId id, String name, int each) {
    AtomicInteger decisions = new AtomicInteger();
    List<CompletableFuture<?>> inFlight = new ArrayList<>();
    for (int i = 0; i < each; i++) {
      String syncTag = name + "-sync-" + i;
      String asyncTag = name + "-async-" + i;
      inFlight.add(CompletableFuture.runAsync(() -> syncCounters.transact(id, counter -> {
        decisions.incrementAndGet();
        return counter.increment(syncTag);
      }), threads));
      inFlight.add(asyncCounters.transact(id, counter -> {
        decisions.incrementAndGet();
        return counter.increment(asyncTag);
      }));
    }
    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).orTimeout(60, TimeUnit.SECONDS).join();
    return decisions.get() - 2 * each;
  }

  /** {@code commands} increments of {@code id} in flight at once; returns how many decisions lost. */
  private static int burst(AsyncCounterRepository counters, CounterId id, String name, int commands) {
    AtomicInteger decisions = new AtomicInteger();
    List<CompletableFuture<Versioned<Counter>>> inFlight = new ArrayList<>();
    for (int i = 0; i < commands; i++) {
      String tag = name + "-" + i;
      inFlight.add(counters.transact(id, counter -> {
        decisions.incrementAndGet();
        return counter.increment(tag);
      }));
    }
    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).orTimeout(60, TimeUnit.SECONDS).join();
    return decisions.get() - commands;
  }

  @Test
  void syncAndAsyncRepositoriesOfOneStoreShareTheCache() {
    DynamoDbEventStore sync = DynamoDbEventStore.create(TestDynamo.client(),
        StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1)))
            .withListener(async.listener()));
    IndexedCounterRepository syncCounters = new IndexedCounterRepository(sync, LayoutKind.JOURNAL, 0);
    AsyncEventStore asyncStore = sync.withAsyncClient(async.client());
    AsyncCounterRepository asyncCounters = new AsyncCounterRepository(asyncStore);
    CounterId id = freshId();
    syncCounters.create(new CounterCreated(id, "shared"));
    async.faults().clear();
    async.operations().clear();

    Counter cached = await(asyncCounters.load(id, ReadOptions.cachedWithin(Duration.ofMinutes(1))));
    Versioned<Counter> transacted = await(asyncCounters.transact(id, counter -> counter.increment("one-request")));

    assertEquals(0, cached.value());
    assertEquals(List.of("TransactWriteItems"), async.sent(),
        "the cached load sends nothing, the transact only its append");
    assertEquals(transacted.state(), syncCounters.load(id, ReadOptions.cachedWithin(Duration.ofMinutes(1))));
    OperationMetrics transact =
        async.operations().stream().filter(m -> m.operation().equals("transact")).findFirst().orElseThrow();
    assertEquals(1, transact.requests());
    assertEquals(1, transact.attempts());
    assertTrue(transact.writeCapacityUnits() > 0, "capacity is metered without a thread-local");
  }

  @Test
  void findAllRemembersTheStreamsItReadInTheCache() {
    AsyncCounterRepository counters =
        counters(StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1))));
    CounterId one = freshId();
    CounterId two = freshId();
    stored().create(new CounterCreated(one, "c"));
    stored().create(new CounterCreated(two, "c"));
    ReadOptions young = ReadOptions.cachedWithin(Duration.ofMinutes(1));

    assertEquals(2, await(counters.findAll(List.of(one, two), young)).size());
    async.faults().clear();
    async.operations().clear();
    assertEquals(2, await(counters.findAll(List.of(one, two), young)).size());
    assertEquals(List.of(), async.sent(), "both remembered by the first findAll");
  }

  @Test
  void findAllIndexedLookupsAndListAllReadWhatIsStored() {
    AsyncEventStore store = async.store(StoreConfig.defaults());
    String name = "async-list-" + UUID.randomUUID().toString().substring(0, 8);
    AsyncCounterRepository counters = new AsyncCounterRepository(store, name);
    String shared = "shared-" + UUID.randomUUID();
    List<CounterId> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      CounterId id = freshId();
      ids.add(id);
      await(counters.create(new CounterCreated(id, shared)));
      // Snapshots every 5 events: some streams are loaded from their snapshot plus events, some not.
      for (int n = 0; n < i * 2; n++) {
        await(counters.transact(id, counter -> List.of(new Incremented(2))));
      }
    }
    CounterId absent = freshId();

    var found = await(counters.findAll(List.of(ids.get(3), absent, ids.get(1))));
    assertEquals(List.of(ids.get(3), ids.get(1)), List.copyOf(found.keySet()), "in the order asked, absent left out");
    assertEquals(12, found.get(ids.get(3)).value(), "six increments by 2");

    List<CounterId> listed = allPages(2, request -> counters.listByName(shared, request)).stream()
        .map(Counter::id).toList();
    assertEquals(ids.stream().map(CounterId::value).sorted().toList(), listed.stream().map(CounterId::value).toList());
    assertTrue(await(counters.findByName(shared)).isPresent());

    List<Counter> all = allPages(3, counters::listAll);
    assertEquals(5, all.size());
    for (Counter counter : all) {
      assertEquals(new IndexedCounterRepository(TestDynamo.store(), name, LayoutKind.JOURNAL).load(counter.id()), counter);
    }
  }

  @Test
  void uniqueLookupsFindTheHolder() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();
    String note = "note-" + UUID.randomUUID();
    await(counters.create(List.of(new CounterCreated(id, "unique"), new Noted(note))));

    assertEquals(Optional.of(id), await(counters.findByNote(note.toUpperCase())).map(Counter::id));
    assertEquals(id, await(counters.loadByNote(note)).id());
    assertInstanceOf(ValueNotFoundException.class, failureOf(counters.loadByNote("nobody-" + UUID.randomUUID())));
    assertInstanceOf(IllegalArgumentException.class, failureOf(counters.findByNote(null)));
  }
}
