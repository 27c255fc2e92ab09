package dev.esgen.runtime.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.NoteFirstReplay;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.MutableClock;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * The store's state cache on DynamoDB Local, counted through the store's listener: what {@code transact}
 * and cached loads send with it, and that a stale entry (another store, playing another process, wrote
 * in between) costs a refused write and a reload but never a lost or doubled command. The journal
 * snapshots on every append here, so that a load is one request on both layouts.
 */
class StateCacheTest {

  private static final StateCachePolicy CACHE = StateCachePolicy.of(1_000, Duration.ofMinutes(5));

  /** A store with its own listener, cache and clock: one process. */
  private static final class Process {
    final List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-23T10:00:00Z"));
    final DynamoDbEventStore store;
    final CounterRepository counters;

    Process(CounterLayout layout, StateCachePolicy cache) {
      store = TestDynamo.store(StoreConfig.defaults().withListener(heard::add).withClock(clock).withStateCache(cache)
          .withRetryPolicy(Contention.PATIENT));
      counters = layout == CounterLayout.JOURNAL
          ? new CounterRepository(store, SnapshotPolicy.every(1))
          : new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
    }

    OperationMetrics last() {
      return heard.get(heard.size() - 1);
    }

    int requests(String operation) {
      return heard.stream().filter(m -> m.operation().equals(operation)).mapToInt(OperationMetrics::requests).sum();
    }
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aSingleWriterTransactIsOneRequestPerCommand(CounterLayout layout) {
    Process cached = new Process(layout, CACHE);
    Process uncached = new Process(layout, StateCachePolicy.disabled());
    CounterId withCache = CounterId.random();
    CounterId withoutCache = CounterId.random();
    cached.counters.create(new CounterCreated(withCache, "c"));
    uncached.counters.create(new CounterCreated(withoutCache, "c"));
    for (int i = 0; i < 10; i++) {
      cached.counters.transact(withCache, counter -> counter.increment("t"));
      assertEquals(1, cached.last().requests(), "transact " + i + " with the cache: the append only");
      uncached.counters.transact(withoutCache, counter -> counter.increment("t"));
      assertEquals(2, uncached.last().requests(), "transact " + i + " without the cache: load and append");
    }
    assertEquals(10, cached.requests("transact"));
    assertEquals(20, uncached.requests("transact"));
    assertEquals(new Versioned<>(new Counter(withCache, "c", 10, 0, ""), 11, 11),
        cached.counters.loadVersioned(withCache, ReadOptions.strong()));
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aWriteByAnotherProcessMakesTheNextTransactReloadAndDecideOnWhatIsStored(CounterLayout layout) {
    Process first = new Process(layout, CACHE);
    Process second = new Process(layout, CACHE);
    CounterId id = CounterId.random();
    first.counters.create(new CounterCreated(id, "c"));
    first.counters.transact(id, counter -> counter.increment("first-1"));   // cached at version 2
    second.counters.transact(id, counter -> counter.increment("second"));   // stored version 3
    assertEquals(2, second.last().requests(), "the second process had nothing cached: load and append");

    List<Long> seenByDecide = new CopyOnWriteArrayList<>();
    Versioned<Counter> after = first.counters.transact(id, counter -> {
      seenByDecide.add(counter.value());
      return List.<CounterEvent>of(new Incremented(1, "first-2"));
    });
    OperationMetrics transact = first.last();
    assertEquals(List.of(1L, 2L), seenByDecide, "decided on the cached state, then on the stored one");
    assertEquals(1, transact.conflicts());
    assertEquals(2, transact.attempts());
    assertEquals(3, transact.requests(), "the refused append, the reload, the append");
    assertEquals(new Versioned<>(new Counter(id, "c", 3, 0, ""), 4, 4), after);
    try (Stream<RecordedEvent<CounterEvent>> events = first.counters.events(id)) {
      assertEquals(List.of("first-1", "second", "first-2"), events.skip(1)
          .map(e -> ((Incremented) e.event()).tag()).toList(), "every command once, in order");
    }

    first.counters.transact(id, counter -> counter.increment("first-3"));
    assertEquals(1, first.last().requests(), "the reload and the append refreshed the cache");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aDecisionThatWritesNothingIsCheckedAgainstTheStoreWhenItWasMadeOnACachedState(CounterLayout layout) {
    Process first = new Process(layout, CACHE);
    Process second = new Process(layout, CACHE);
    CounterId id = CounterId.random();
    first.counters.create(new CounterCreated(id, "c"));
    first.counters.transact(id, counter -> counter.increment("to-1"));      // cached: value 1
    Versioned<Counter> stored = second.counters.loadVersioned(id);
    second.counters.append(stored, List.of(new Incremented(-1, "back-to-0")));

    // Only at 0 is there something to do: on the stale cached 1 the decision would write nothing.
    Versioned<Counter> after = first.counters.transact(id,
        counter -> counter.value() == 0 ? counter.increment("from-0") : List.of());
    assertEquals(1, after.state().value());
    assertEquals(4, after.version());
    assertEquals(2, first.last().requests(), "a strongly consistent load, then the append");

    // A decision that throws on the cached state is made again on the stored one.
    second.counters.append(second.counters.loadVersioned(id), List.of(new Incremented(-1, "again-0")));
    Versioned<Counter> again = first.counters.transact(id, counter -> {
      if (counter.value() != 0) {
        throw new IllegalStateException("only from zero");
      }
      return counter.increment("from-0-again");
    });
    assertEquals(1, again.state().value());

    // Thrown on what is stored, it reaches the caller, and nothing is written.
    IllegalStateException rejected = assertThrows(IllegalStateException.class, () -> first.counters.transact(id,
        counter -> {
          throw new IllegalStateException("never");
        }));
    assertEquals("never", rejected.getMessage());
    assertEquals(6, first.counters.loadVersioned(id).version());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aHandlerThatRefusesTheCachedStateIsCheckedAgainstTheStoredOne(CounterLayout layout) {
    Process first = new Process(layout, CACHE);
    Process second = new Process(layout, CACHE);
    CounterRepository firstCounters = needingANote(first, layout);
    CounterId id = CounterId.random();
    firstCounters.create(new CounterCreated(id, "c"));                    // cached without a note
    needingANote(second, layout).append(id, 1, new Noted("n"));          // another process adds one

    // The decision is the same on either state; the handler refuses it on the cached one only.
    Versioned<Counter> after = firstCounters.transact(id, counter -> counter.increment(NEEDS_A_NOTE));
    assertEquals(new Versioned<>(new Counter(id, "c", 1, 1, "n"), 3, 3), after);
    assertEquals(2, first.last().requests(), "a strongly consistent load, then the append");

    // Refused on what is stored, it reaches the caller, and nothing is written.
    CounterId noNote = CounterId.random();
    firstCounters.create(new CounterCreated(noNote, "c"));
    IllegalStateException refused = assertThrows(IllegalStateException.class,
        () -> firstCounters.transact(noNote, counter -> counter.increment(NEEDS_A_NOTE)));
    assertEquals("an increment tagged " + NEEDS_A_NOTE + " needs a note first", refused.getMessage());
    assertEquals(1, first.last().requests(), "the load that confirmed the refusal; no append");
    assertEquals(1, firstCounters.loadVersioned(noNote, ReadOptions.strong()).version());
  }

  private static final String NEEDS_A_NOTE = NoteFirstReplay.TAG;

  /** Counters whose handler refuses an increment tagged {@link #NEEDS_A_NOTE} on a counter with no note. */
  private static CounterRepository needingANote(Process process, CounterLayout layout) {
    return new CounterRepository(process.store, CounterRepository.builder(
            CounterRepository.NAME, process.store.objectMapper(), SnapshotPolicy.every(1),
            layout == CounterLayout.JOURNAL ? LayoutKind.JOURNAL : LayoutKind.TIP)
        .tipPolicy(new TipPolicy(32 * 1024, 0, true))
        .replay(new NoteFirstReplay())
        .build());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anAppendAtAVersionTheCacheHoldsSkipsTheLoadAndStillFailsWhenSomeoneWroteFirst(CounterLayout layout) {
    Process first = new Process(layout, CACHE);
    Process second = new Process(layout, CACHE);
    CounterId id = CounterId.random();
    Versioned<Counter> created = first.counters.create(new CounterCreated(id, "c"));
    first.counters.append(id, created.version(), new Incremented(1, "a"));
    assertEquals(1, first.last().requests(), "version 1 was cached by the create");

    second.counters.append(id, 2, new Incremented(1, "b"));
    assertThrows(VersionConflictException.class, () -> first.counters.append(id, 2, new Incremented(1, "c")));
    assertEquals(1, first.last().requests(), "DynamoDB refused the conditioned append");
    first.counters.append(id, 3, new Incremented(1, "d"));
    assertEquals(2, first.last().requests(), "the refusal dropped version 2 from the cache: load, then append");
    assertEquals(3, first.counters.load(id, ReadOptions.strong()).value());
  }

  /**
   * An empty append writes nothing that DynamoDB could refuse, so its version check is the load: a cached
   * stream at the expected version must not stand in for it once another process moved the stream on.
   */
  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anEmptyAppendAtAVersionTheCacheHoldsStillFindsThatAnotherProcessMovedOn(CounterLayout layout) {
    Process first = new Process(layout, CACHE);
    Process second = new Process(layout, CACHE);
    CounterId id = CounterId.random();
    first.counters.create(new CounterCreated(id, "c"));   // version 1 cached by the create
    second.counters.append(id, 1, new Incremented(1, "b"));

    VersionConflictException sync =
        assertThrows(VersionConflictException.class, () -> first.counters.append(id, 1, List.of()));
    assertEquals(OptionalLong.of(2), sync.actualVersion());
    assertEquals(new Versioned<>(new Counter(id, "c", 1, 0, ""), 2, 2), first.counters.append(id, 2, List.of()),
        "at the stored version: the current state");

    CounterId other = CounterId.random();
    first.counters.create(new CounterCreated(other, "c"));
    second.counters.append(other, 1, new Incremented(1, "b"));
    try (DynamoDbAsyncClient client = AsyncDynamo.client()) {
      var async = new AsyncEventSourcedRepository<Counter, CounterId, CounterEvent>(
          first.store.withAsyncClient(client), first.counters.definition()) {};
      CompletionException failed =
          assertThrows(CompletionException.class, () -> async.append(other, 1, List.of()).join());
      assertEquals(OptionalLong.of(2), assertInstanceOf(VersionConflictException.class, failed.getCause())
          .actualVersion());
    }
    for (CounterId stream : List.of(id, other)) {
      Versioned<Counter> stored = new Process(layout, StateCachePolicy.disabled()).counters
          .loadVersioned(stream, ReadOptions.strong());
      assertEquals(new Versioned<>(new Counter(stream, "c", 1, 0, ""), 2, 2), stored, "nothing written");
    }
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aCachedLoadYoungerThanAskedSendsNothing(CounterLayout layout) {
    Process process = new Process(layout, CACHE);
    CounterId id = CounterId.random();
    process.counters.create(new CounterCreated(id, "c"));
    process.counters.transact(id, counter -> counter.increment("t"));

    process.clock.advance(Duration.ofSeconds(4));
    assertEquals(1, process.counters.load(id, ReadOptions.cachedWithin(Duration.ofSeconds(5))).value());
    assertEquals(0, process.last().requests(), "written 4 s ago, 5 s allowed");
    assertEquals(2, process.counters.findVersioned(id, ReadOptions.cachedWithin(Duration.ofSeconds(5)))
        .orElseThrow().version());
    assertEquals(0, process.last().requests());

    process.clock.advance(Duration.ofSeconds(2));
    assertEquals(1, process.counters.load(id, ReadOptions.cachedWithin(Duration.ofSeconds(5))).value());
    assertEquals(1, process.last().requests(), "6 s old: read again, which refreshes the entry");
    assertEquals(1, process.counters.load(id, ReadOptions.cachedWithin(Duration.ofSeconds(5))).value());
    assertEquals(0, process.last().requests());

    CounterId other = CounterId.random();
    new Process(layout, StateCachePolicy.disabled()).counters.create(new CounterCreated(other, "o"));
    assertEquals(2, process.counters.findAll(List.of(id, other), ReadOptions.cachedWithin(Duration.ofSeconds(5)))
        .size());
    assertEquals(1, process.last().requests(), "one cached, one read");

    process.clock.advance(Duration.ofMinutes(6));
    process.counters.load(id, ReadOptions.cachedWithin(Duration.ofHours(1)));
    assertEquals(1, process.last().requests(), "past the policy's 5 minutes the entry is gone, whatever is asked");

    Process uncached = new Process(layout, StateCachePolicy.disabled());
    uncached.counters.load(id, ReadOptions.cachedWithin(Duration.ofHours(1)));
    assertEquals(1, uncached.last().requests(), "without a cache every load reads");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aFindAllRemembersTheStreamsItRead(CounterLayout layout) {
    Process writer = new Process(layout, StateCachePolicy.disabled());
    Process reader = new Process(layout, CACHE);
    CounterId one = CounterId.random();
    CounterId two = CounterId.random();
    writer.counters.create(new CounterCreated(one, "c"));
    writer.counters.create(new CounterCreated(two, "c"));
    ReadOptions young = ReadOptions.cachedWithin(Duration.ofSeconds(5));

    assertEquals(2, reader.counters.findAll(List.of(one, two), young).size());
    assertTrue(reader.last().requests() > 0, "nothing remembered yet: read");
    assertEquals(2, reader.counters.findAll(List.of(one, two), young).size());
    assertEquals(0, reader.last().requests(), "both remembered by the first findAll");
    reader.counters.transact(one, counter -> counter.increment("t"));
    assertEquals(1, reader.last().requests(), "decided on what the findAll read: the append only");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void underFourContendingWritersTheCacheSendsNoMoreRequestsPerCommand(CounterLayout layout) throws Exception {
    int perThread = 10;
    double withCache = contend(layout, CACHE, perThread);
    double withoutCache = contend(layout, StateCachePolicy.disabled(), perThread);
    assertTrue(withCache <= withoutCache,
        "requests per command with the cache " + withCache + ", without " + withoutCache);
  }

  /** Four threads of one process transact on one counter; returns requests per command. */
  private static double contend(CounterLayout layout, StateCachePolicy cache, int perThread) throws Exception {
    Process process = new Process(layout, cache);
    CounterId id = CounterId.random();
    process.counters.create(new CounterCreated(id, "c"));
    process.heard.clear();
    Contention.run(4, perThread, (thread, i) ->
        process.counters.transact(id, counter -> counter.increment(thread + "-" + i)));
    Versioned<Counter> stored = process.counters.loadVersioned(id, ReadOptions.strong());
    assertEquals(4 * perThread, stored.state().value(), "no command lost or doubled");
    assertEquals(1 + 4 * perThread, stored.version(), "one append per command");
    return (double) process.requests("transact") / (4 * perThread);
  }
}
