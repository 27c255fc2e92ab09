package dev.esgen.runtime.async;

import static dev.esgen.runtime.testing.AsyncStoreFixture.allPages;
import static dev.esgen.runtime.testing.AsyncStoreFixture.attempts;
import static dev.esgen.runtime.testing.AsyncStoreFixture.await;
import static dev.esgen.runtime.testing.AsyncStoreFixture.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.AsyncEventStore;
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
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.EventSourcedRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncFaults;
import dev.esgen.runtime.testing.AsyncFaults.Fault;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The asynchronous repository on the tip layout against DynamoDB Local, faults injected into its async
 * client: the same requests as the synchronous tip layout (a {@code PutItem} to create, an
 * {@code UpdateItem} per append, a transaction to calve or reserve), what is stored after lost responses,
 * resends and spent budgets, and that every wait is spent on the delayed executor.
 */
class AsyncTipRepositoryTest {

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  private AsyncCounterRepository counters(StoreConfig config, int tipMaxEvents) {
    return new AsyncCounterRepository(async.store(config), LayoutKind.TIP, tipMaxEvents);
  }

  private AsyncCounterRepository counters() {
    return counters(StoreConfig.defaults(), 0);
  }

  /** What a synchronous tip repository of another store reads: what is stored, not what a cache holds. */
  private static IndexedCounterRepository stored() {
    return new IndexedCounterRepository(TestDynamo.store(), LayoutKind.TIP, 0);
  }

  private static List<RecordedEvent<CounterEvent>> storedEvents(CounterId id) {
    try (var events = stored().events(id)) {
      return events.toList();
    }
  }

  private static Counter folded(List<RecordedEvent<CounterEvent>> events) {
    Counter folded = CounterRepository.replay().create(events.get(0).event());
    for (RecordedEvent<CounterEvent> event : events.subList(1, events.size())) {
      folded = CounterRepository.replay().apply(folded, event.event());
    }
    return folded;
  }

  /** How many calved batch items stream {@code id} of {@code aggregateName} has, read from the table. */
  private static int batches(String aggregateName, CounterId id) {
    String stream = new TipKeys(aggregateName).streamName(id.value());
    return TestDynamo.client().query(b -> b
        .tableName(StoreConfig.defaults().tipTable())
        .keyConditionExpression("p = :p")
        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream)))
        .consistentRead(true)).count() - 1;
  }

  private static CounterId freshId() {
    return new CounterId("async-tip-" + UUID.randomUUID());
  }

  @Test
  void createAppendTransactAndReadsSendWhatTheSyncTipLayoutSends() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();
    async.faults().clear();

    Versioned<Counter> created = await(counters.create(new CounterCreated(id, "async-tip")));
    assertEquals(List.of("PutItem"), async.sent(), "a new stream is one PutItem of its tip");
    async.faults().clear();
    Versioned<Counter> appended = await(counters.append(created, List.of(new Incremented(2, "a"))));
    assertEquals(List.of("UpdateItem"), async.sent(), "an append is one UpdateItem of the tip");
    async.faults().clear();
    Versioned<Counter> transacted = await(counters.transact(id,
        AppendOptions.metadata(EventMetadata.none().withActor("teller-7")), counter -> counter.increment("t")));
    assertEquals(List.of("GetItem", "UpdateItem"), async.sent(), "a transact reads the tip, then updates it");

    assertEquals(2, appended.version());
    assertEquals(3, transacted.version());
    assertEquals(3, transacted.state().value());
    assertEquals(transacted.state(), stored().load(id));
    List<RecordedEvent<CounterEvent>> events = storedEvents(id);
    assertEquals(List.of(new CounterCreated(id, "async-tip"), new Incremented(2, "a"), new Incremented(1, "t")),
        events.stream().map(RecordedEvent::event).toList());
    assertEquals(Optional.of("teller-7"), events.get(2).metadata().actor());

    assertEquals(Optional.of(transacted.state()), await(counters.findById(id)));
    assertEquals(transacted.state(), await(counters.load(id, ReadOptions.eventual())));
    assertEquals(3, await(counters.loadVersioned(id)).version());
    assertEquals(Optional.empty(), await(counters.findById(freshId())));
    assertInstanceOf(AggregateAlreadyExistsException.class,
        failureOf(counters.create(new CounterCreated(id, "again"))));
    VersionConflictException conflict =
        assertInstanceOf(VersionConflictException.class, failureOf(counters.append(id, 1, List.of(new Incremented(1)))));
    assertEquals(1, conflict.expectedVersion());
    assertEquals(3, storedEvents(id).size(), "the refused writes stored nothing");
  }

  @Test
  void calvingMovesTheTipsEventsIntoBatchesAndLoadsEqualTheSyncLoadAndTheFold() {
    AsyncCounterRepository counters = counters(StoreConfig.defaults(), 4);
    CounterId id = freshId();
    Versioned<Counter> current = await(counters.create(new CounterCreated(id, "calving")));
    for (int i = 0; i < 13; i++) {
      async.faults().clear();
      current = await(counters.append(current, List.of(new Incremented(1, "n" + i))));
      List<String> sent = async.sent();
      assertEquals(1, sent.size(), "one write per append: " + sent);
      assertTrue(sent.get(0).equals("UpdateItem") || sent.get(0).equals("TransactWriteItems"), sent.toString());
    }

    assertTrue(batches(IndexedCounterRepository.NAME, id) >= 2, "the tip calved");
    IndexedCounterRepository sync = new IndexedCounterRepository(TestDynamo.store(), LayoutKind.TIP, 4);
    Counter loaded = await(counters.load(id));
    assertEquals(13, loaded.value());
    assertEquals(sync.load(id), loaded);
    assertEquals(folded(storedEvents(id)), loaded);
    assertEquals(14, storedEvents(id).size());
  }

  /** Counters in the tip layout without a snapshot, calving every few events: a load must read the batches. */
  private static final class EventsOnlyCounters extends AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> {
    EventsOnlyCounters(AsyncEventStore store, String name) {
      super(store, eventsOnly(store.objectMapper(), name));
    }
  }

  private static AggregateDefinition<Counter, CounterId, CounterEvent> eventsOnly(
      ObjectMapper mapper, String name) {
    return CounterRepository.builder(name, mapper, SnapshotPolicy.every(5), LayoutKind.TIP)
        .tipPolicy(new TipPolicy(32 * 1024, 3, false))
        .build();
  }

  @Test
  void aTipWithoutASnapshotIsFoldedWithItsCalvedBatches() {
    String name = "async-tip-events-" + UUID.randomUUID().toString().substring(0, 8);
    EventsOnlyCounters counters = new EventsOnlyCounters(async.store(StoreConfig.defaults()), name);
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "events-only")));
    for (int i = 0; i < 10; i++) {
      await(counters.transact(id, counter -> counter.increment("e")));
    }
    assertTrue(batches(name, id) >= 2, "the tip calved");
    async.faults().clear();

    Counter loaded = await(counters.load(id, ReadOptions.strong()));

    assertEquals(10, loaded.value());
    assertEquals(List.of("GetItem", "Query"), async.sent(), "the tip, then its batches newest first in one page");
    EventSourcedRepository<Counter, CounterId, CounterEvent> sync =
        new EventSourcedRepository<>(TestDynamo.store(), eventsOnly(TestDynamo.store().objectMapper(), name)) {};
    assertEquals(sync.load(id), loaded);
    try (var events = sync.events(id)) {
      assertEquals(folded(events.toList()), loaded);
    }
    assertEquals(List.of(loaded), List.copyOf(await(counters.findAll(List.of(id, freshId()))).values()));
  }

  @Test
  void aLostResponseOnAnUpdateIsSettledByReadingBackTheTipAndStoredOnce() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "lost")));
    async.faults().clear();
    async.faults().enqueue(UpdateItemRequest.class, Fault.LOST_RESPONSE);

    Versioned<Counter> written = await(counters.transact(id, counter -> counter.increment("lost-once")));

    assertEquals(2, written.version());
    assertEquals(List.of("GetItem", "UpdateItem", "GetItem"), async.sent(),
        "load, the write of unknown outcome, the read-back; failed attempts: " + async.failedAttempts());
    List<RecordedEvent<CounterEvent>> events = storedEvents(id);
    assertEquals(1, events.stream().filter(e -> e.event().equals(new Incremented(1, "lost-once"))).count());
    assertEquals(2, events.size());
  }

  @Test
  void aLostResponseOnACalvingTransactionIsResentWithItsTokenAndStoredOnce() {
    // The tip calves past 2 events: the third event's append moves the first two into a batch, in one
    // transaction, whose responses are lost until the budget is spent; reading the tip back decides.
    AsyncCounterRepository counters = counters(attempts(2, 5), 2);
    CounterId id = freshId();
    Versioned<Counter> current = await(counters.create(new CounterCreated(id, "calve-lost")));
    current = await(counters.append(current, List.of(new Incremented(1, "kept"))));
    assertEquals(0, batches(IndexedCounterRepository.NAME, id));
    async.faults().clear();
    async.faults().enqueue(TransactWriteItemsRequest.class, Fault.LOST_RESPONSE, Fault.LOST_RESPONSE);

    Versioned<Counter> calved = await(counters.append(current, List.of(new Incremented(1, "calving"))));

    assertEquals(3, calved.version());
    assertEquals(List.of("TransactWriteItems", "TransactWriteItems", "GetItem"), async.sent());
    assertEquals(1, batches(IndexedCounterRepository.NAME, id), "one batch, written once");
    assertEquals(List.of(new CounterCreated(id, "calve-lost"), new Incremented(1, "kept"), new Incremented(1, "calving")),
        storedEvents(id).stream().map(RecordedEvent::event).toList());
    assertEquals(stored().load(id), await(counters.load(id)));
  }

  @Test
  void aLostResponseOnACreateIsSettledByReadingBackTheTip() {
    AsyncCounterRepository counters = counters();
    CounterId id = freshId();
    async.faults().clear();
    async.faults().enqueue(PutItemRequest.class, Fault.LOST_RESPONSE);

    Versioned<Counter> created = await(counters.create(new CounterCreated(id, "lost-create")));

    assertEquals(1, created.version());
    assertEquals(List.of("PutItem", "GetItem"), async.sent());
    assertEquals(List.of(new CounterCreated(id, "lost-create")),
        storedEvents(id).stream().map(RecordedEvent::event).toList());
  }

  @Test
  void aWriteNotAppliedIsReadBackAndSentAgainFromTheDelayedExecutor() {
    // A 500 leaves the outcome unknown; the read-back finds nothing after the loaded version, so the same
    // conditioned update goes again, after a pause no thread waits through.
    AsyncCounterRepository counters = counters(attempts(5, 50), 0);
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "resent")));
    async.faults().clear();
    async.failedAttempts().clear();
    async.faults().enqueue(UpdateItemRequest.class, Fault.SERVER_ERROR);
    String caller = Thread.currentThread().getName();

    Versioned<Counter> written = await(counters.transact(id, counter -> counter.increment("after-500")));

    assertEquals(2, written.version());
    assertEquals(List.of("GetItem", "UpdateItem", "GetItem", "UpdateItem"), async.sent());
    AsyncFaults.Started resend = async.faults().started().get(3);
    assertTrue(resend.thread().startsWith("ForkJoinPool.commonPool-worker"), resend.thread());
    assertFalse(resend.thread().equals(caller));
    assertEquals(1, async.failedAttempts().size());
    assertEquals(2, storedEvents(id).size(), "stored once");
  }

  @Test
  void throttlingIsRetriedFromTheDelayedExecutorWithoutBlockingTheCaller() {
    AsyncCounterRepository counters = counters(attempts(5, 50), 0);
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "throttled")));
    async.faults().clear();
    async.failedAttempts().clear();
    async.faults().enqueue(UpdateItemRequest.class, Fault.THROTTLED, Fault.THROTTLED);
    String caller = Thread.currentThread().getName();

    CompletableFuture<Versioned<Counter>> pending = counters.transact(id, counter -> counter.increment("throttled"));
    Versioned<Counter> written = await(pending);

    assertEquals(2, written.version());
    List<AsyncFaults.Started> writes = async.faults().started().stream()
        .filter(s -> s.operation().equals("UpdateItem")).toList();
    assertEquals(3, writes.size(), "two throttled attempts and the one that went through");
    for (AsyncFaults.Started resend : writes.subList(1, 3)) {
      assertTrue(resend.thread().startsWith("ForkJoinPool.commonPool-worker"), resend.thread());
      assertFalse(resend.thread().equals(caller));
    }
    assertEquals(2, async.failedAttempts().size());
    assertTrue(async.failedAttempts().stream().allMatch(f -> f.retryAfter().isPresent()));
    assertEquals(2, storedEvents(id).size(), "stored once");
  }

  @Test
  void aSpentBudgetOnThrottlingSaysTheStoreIsUnavailableAndNothingIsWritten() {
    AsyncCounterRepository counters = counters(attempts(3, 5), 0);
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "unavailable")));
    async.faults().always(UpdateItemRequest.class, Fault.THROTTLED);

    StoreUnavailableException unavailable = assertInstanceOf(StoreUnavailableException.class,
        failureOf(counters.transact(id, counter -> counter.increment("never"))));

    assertEquals(3, unavailable.attempts());
    assertEquals(1, storedEvents(id).size(), "nothing written, as the exception says");
  }

  @Test
  void aSpentBudgetOnWritesOfUnknownOutcomeIsUnknownAndWhatIsStoredAgrees() {
    AsyncCounterRepository counters = counters(attempts(3, 5), 0);
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "unknown")));
    async.faults().clear();
    async.faults().always(UpdateItemRequest.class, Fault.SERVER_ERROR);

    AppendOutcomeUnknownException unknown = assertInstanceOf(AppendOutcomeUnknownException.class,
        failureOf(counters.transact(id, counter -> counter.increment("maybe"))));

    assertEquals(id.value(), unknown.aggregateId());
    assertEquals(3, async.sent().stream().filter("UpdateItem"::equals).count(),
        "every attempt was read back, then resent");
    assertEquals(1, storedEvents(id).size(), "the 500s were injected before sending: nothing is stored");
  }

  @Test
  void aCommandIdIsAppliedOnceEvenWhenItsTransactionsResponseIsLost() {
    AsyncCounterRepository counters = counters(attempts(2, 5), 0);
    CounterId id = freshId();
    await(counters.create(new CounterCreated(id, "command")));
    async.faults().clear();
    async.faults().enqueue(TransactWriteItemsRequest.class, Fault.LOST_RESPONSE, Fault.LOST_RESPONSE);

    Versioned<Counter> first = await(counters.transact(id, "deposit-1", counter -> counter.increment("once")));
    assertEquals(List.of("GetItem", "GetItem", "TransactWriteItems", "TransactWriteItems", "GetItem"), async.sent(),
        "load, command lookup, two attempts with one token, the read-back of the tip");
    Versioned<Counter> repeat = await(counters.transact(id, "deposit-1", counter -> counter.increment("twice")));

    assertEquals(first.version(), repeat.version());
    assertEquals(List.of("once"), storedEvents(id).stream().map(RecordedEvent::event)
        .filter(Incremented.class::isInstance).map(e -> ((Incremented) e).tag()).toList());
  }

  @Test
  void concurrentAsyncWritersApplyEveryCommandOnce() {
    // Two stores, so neither learns the other's writes from a shared cache: they conflict for real. The tip
    // calves every 4 events, so some conflicting appends are transactions.
    AsyncCounterRepository left =
        counters(StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1))), 4);
    AsyncCounterRepository right = counters(StoreConfig.defaults(), 4);
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
    assertEquals(folded(events), stored().load(id));
    assertEquals(commands, folded(events).value());
    assertTrue(async.operations().stream().anyMatch(m -> m.operation().equals("transact") && m.conflicts() > 0),
        "the writers did conflict");
  }

  @Test
  void findAllIndexedUniqueLookupsAndListAllReadWhatIsStored() {
    String name = "async-tip-list-" + UUID.randomUUID().toString().substring(0, 8);
    AsyncCounterRepository counters =
        new AsyncCounterRepository(async.store(StoreConfig.defaults()), name, LayoutKind.TIP);
    String shared = "shared-" + UUID.randomUUID();
    List<CounterId> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      CounterId id = freshId();
      ids.add(id);
      await(counters.create(new CounterCreated(id, shared)));
      for (int n = 0; n < i * 2; n++) {
        await(counters.transact(id, counter -> List.of(new Incremented(2))));
      }
    }
    String note = "note-" + UUID.randomUUID();
    await(counters.transact(ids.get(2), counter -> List.of(new Noted(note))));

    var found = await(counters.findAll(List.of(ids.get(3), freshId(), ids.get(1))));
    assertEquals(List.of(ids.get(3), ids.get(1)), List.copyOf(found.keySet()), "in the order asked, absent left out");
    assertEquals(12, found.get(ids.get(3)).value(), "six increments by 2");

    List<CounterId> listed = allPages(2, request -> counters.listByName(shared, request)).stream()
        .map(Counter::id).toList();
    assertEquals(ids.stream().map(CounterId::value).sorted().toList(), listed.stream().map(CounterId::value).toList());

    List<Counter> all = allPages(3, counters::listAll);
    assertEquals(5, all.size());
    IndexedCounterRepository sync = new IndexedCounterRepository(TestDynamo.store(), name, LayoutKind.TIP);
    for (Counter counter : all) {
      assertEquals(sync.load(counter.id()), counter);
    }

    assertEquals(Optional.of(ids.get(2)), await(counters.findByNote(note.toUpperCase())).map(Counter::id));
    assertEquals(ids.get(2), await(counters.loadByNote(note)).id());
    assertEquals(Optional.empty(), await(counters.findByNote("nobody-" + UUID.randomUUID())));
  }
}
