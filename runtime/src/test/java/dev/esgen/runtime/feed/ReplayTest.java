package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Replay from the tables: a new projection catches up, joins the live feed, survives outages and resets. */
class ReplayTest {

  private final Map<String, List<RecordedEvent<CounterEvent>>> taken = new ConcurrentHashMap<>();

  private void take(RecordedEvent<CounterEvent> event) {
    taken.computeIfAbsent(event.aggregateId(), id -> new CopyOnWriteArrayList<>()).add(event);
  }

  private static List<Long> seqNrs(List<RecordedEvent<CounterEvent>> events) {
    return events == null ? List.of() : events.stream().map(RecordedEvent::seqNr).toList();
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aNewProjectionReplaysWhileWritersAppendAndTheLiveFeedRunsAndTakesEveryEventOnce(FeedFixture.Layout layout)
      throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    List<CounterId> ids =
        new CopyOnWriteArrayList<>(ExactlyOnceProjectionTest.writeCounters(counters, 12, new Random(5)));
    TableStream stream = fixture.stream(layout);
    // The history's records are gone, as they are 24 hours later: only a replay can deliver those events.
    stream.readNew();
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), this::take)
        .transactionalProjection("totals", counters.definition(), totals)
        .replaySegments(3)
        .build();

    ExecutorService threads = Executors.newFixedThreadPool(4);
    AtomicBoolean writing = new AtomicBoolean(true);
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      Random random = new Random(w);
      writers.add(threads.submit(() -> {
        CounterId fresh = CounterId.random();
        counters.create(new CounterCreated(fresh, "new"));
        ids.add(fresh);
        for (int k = 0; k < 15; k++) {
          CounterId id = ids.get(random.nextInt(ids.size()));
          counters.transact(id, c -> List.of(new Incremented(1 + random.nextInt(5)), new Incremented(1)));
        }
        return null;
      }));
    }
    Future<?> live = threads.submit(() -> {
      boolean more = true;
      while (more) {
        more = writing.get();
        for (TableStream.Batch batch : stream.readNew()) {
          feed.handle(batch.shardId(), batch.records());
        }
      }
      return null;
    });
    ReplayReport log = feed.replay("log");
    ReplayReport replayedTotals = feed.replay("totals");
    for (Future<?> writer : writers) {
      writer.get();
    }
    writing.set(false);
    live.get();
    threads.shutdown();
    stream.close();

    assertEquals("log", log.projection());
    // A stream a writer appends to while the replay runs may be caught up by the live feed first (it reads
    // the gap before the new record), and then the replay has nothing left of it to deliver: so the replay
    // accounts for some of the streams, and the checks below for every event of every stream.
    assertTrue(log.events() > 0 && log.streams() > 0, log.toString());
    assertTrue(replayedTotals.events() > 0, replayedTotals.toString());
    assertEquals(15, ids.size());
    for (CounterId id : ids) {
      List<RecordedEvent<CounterEvent>> stored = FeedFixture.stored(counters, id.value());
      assertEquals(seqNrs(stored), seqNrs(taken.get(id.value())), "each event once, in order: " + id.value());
      assertEquals(stored, taken.get(id.value()));
      assertEquals(stored.size(), fixture.position("log", id.value()));
      assertEquals(stored.size(), fixture.position("totals", id.value()));
      assertEquals(counters.load(id).value(), totals.total(id.value()));
    }
  }

  @Test
  void afterAnOutageLongerThanTheStreamKeepsRecordsAReplayDeliversWhatWasMissed() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = ExactlyOnceProjectionTest.writeCounters(counters, 6, new Random(1));
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), this::take).build();
    try (TableStream stream = fixture.stream(FeedFixture.Layout.JOURNAL)) {
      stream.readNew().forEach(batch -> feed.handle(batch.shardId(), batch.records()));
      for (CounterId id : ids) {
        counters.transact(id, c -> List.of(new Incremented(3), new Incremented(4)));
      }
      stream.readNew();
      counters.transact(ids.get(0), c -> c.increment("after"));
      stream.readNew().forEach(batch -> feed.handle(batch.shardId(), batch.records()));
    }
    long behind = 0;
    for (CounterId id : ids) {
      behind += FeedFixture.stored(counters, id.value()).size() - fixture.position("log", id.value());
    }
    assertEquals(10, behind, "the first stream caught up by reading its gap, five others are 2 events behind");

    ReplayReport report = feed.replay("log");

    assertEquals(new ReplayReport("log", 5, 10), report);
    for (CounterId id : ids) {
      assertEquals(FeedFixture.stored(counters, id.value()), taken.get(id.value()));
    }
    assertEquals(new ReplayReport("log", 0, 0), feed.replay("log"), "nothing left to deliver");
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aResetProjectionIsRebuiltFromTheTables(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    List<CounterId> ids = ExactlyOnceProjectionTest.writeCounters(counters, 5, new Random(2));
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), this::take)
        .projection("other", counters.definition(), event -> { })
        .build();
    feed.replay("log");
    feed.replay("other");
    taken.clear();

    assertEquals(5, feed.reset("log"));

    assertEquals(0, fixture.positions("log"));
    assertEquals(5, fixture.positions("other"), "other projections keep their positions");
    feed.replay("log");
    for (CounterId id : ids) {
      assertEquals(FeedFixture.stored(counters, id.value()), taken.get(id.value()));
    }
  }

  /**
   * Segments are not threads: 16 segments of each of two tables share two threads, one segment after the
   * other (none waits for another, so none waits for a thread forever), and every event of both tables is
   * delivered once, in order.
   */
  @Test
  void moreSegmentsThanThreadsOfTwoTablesQueueForTheThreadsAndDeliverEveryEventOnce() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository journal = fixture.counters(FeedFixture.Layout.JOURNAL);
    CounterRepository tip = tallies(fixture);
    List<CounterId> journalIds = ExactlyOnceProjectionTest.writeCounters(journal, 20, new Random(11));
    List<CounterId> tipIds = ExactlyOnceProjectionTest.writeCounters(tip, 20, new Random(12));
    Set<Thread> threads = ConcurrentHashMap.newKeySet();
    Projection<CounterEvent> log = event -> {
      threads.add(Thread.currentThread());
      take(event);
    };
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", journal.definition(), log)
        .projection("log", tip.definition(), log)
        .replaySegments(16)
        .replayThreads(2)
        .build();

    ReplayReport report = feed.replay("log");

    assertTrue(threads.size() <= 2, threads.size() + " threads delivered: " + threads);
    long stored = 0;
    for (CounterRepository counters : List.of(journal, tip)) {
      for (CounterId id : counters == journal ? journalIds : tipIds) {
        List<RecordedEvent<CounterEvent>> events = FeedFixture.stored(counters, id.value());
        assertEquals(events, taken.get(id.value()), "each event once, in order: " + id.value());
        stored += events.size();
      }
    }
    assertEquals(new ReplayReport("log", 40, stored), report);
  }

  /** A segment that fails does not keep the segments queued behind it from being read: the others deliver. */
  @Test
  void aFailingSegmentOnTheOnlyThreadLetsTheSegmentsAfterItDeliverAndThenFailsTheReplay() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = tallies(fixture);
    List<CounterId> ids = ExactlyOnceProjectionTest.writeCounters(counters, 12, new Random(13));
    String broken = ids.get(5).value();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), event -> {
          if (event.aggregateId().equals(broken)) {
            throw new IllegalStateException("read model unavailable");
          }
          take(event);
        })
        .retryPolicy(RetryPolicy.noRetries())
        .replaySegments(8)
        .replayThreads(1)
        .build();

    ProjectionFailedException failed = assertThrows(ProjectionFailedException.class, () -> feed.replay("log"));

    assertEquals(broken, failed.aggregateId());
    for (CounterId id : ids) {
      List<RecordedEvent<CounterEvent>> expected =
          id.value().equals(broken) ? null : FeedFixture.stored(counters, id.value());
      assertEquals(expected, taken.get(id.value()), id.value());
    }
  }

  @Test
  void replaySegmentsAndThreadsOutsideTheirRangesAreRefusedNamingTheRange() {
    ChangeFeed.Builder builder = ChangeFeed.builder(TestDynamo.store())
        .projection("log", new CounterRepository(TestDynamo.store()).definition(), this::take);

    for (int segments : new int[] {0, 1_000_001}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.replaySegments(segments));
      assertEquals("replay segments must be 1 to 1,000,000 (DynamoDB's limit), was " + segments, e.getMessage());
    }
    for (int threads : new int[] {0, 257}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.replayThreads(threads));
      assertEquals("replay threads must be 1 to 256, was " + threads, e.getMessage());
    }
    builder.replaySegments(1_000_000).replayThreads(256).replayThreads(1);
  }

  /** Counters of another aggregate type, {@code tally}, in the tip layout: a second table to replay. */
  private static CounterRepository tallies(FeedFixture fixture) {
    return new CounterRepository(fixture.store, CounterRepository.builder(
            "tally", fixture.store.objectMapper(), SnapshotPolicy.every(100), LayoutKind.TIP)
        .tipPolicy(new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 3, true))
        .build());
  }

  /**
   * A journal stream whose id is another's followed by {@code -} and 20 digits sorts inside that other
   * stream, whose seq_nrs its sort keys go on with ({@code counter-7-00000000000000000015} is the key of
   * stream 7's event 15, {@code counter-7-00000000000000000015-00000000000000000001} the first of stream
   * {@code 7-00000000000000000015}): in one partition the other stream's events come before and after it.
   * When the inner stream fills a scan page of its own, the outer one is seen again two pages later, and
   * still counts once. An id with fewer digits after its hyphen ({@code 7-00000000015}) sorts after all of
   * stream 7's events and splits nothing.
   */
  @Test
  void aJournalStreamInsideWhoseKeysAnotherStreamSortsIsCountedOnce() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    JournalKeys keys = new JournalKeys(CounterRepository.NAME, counters.definition().shards());
    String outer = IntStream.iterate(1, n -> n + 1).mapToObj(Integer::toString)
        .filter(id -> keys.shard(id) == keys.shard(id + "-00000000000000000015")
            && keys.shard(id) == keys.shard(id + "-00000000015"))
        .findFirst().orElseThrow();
    CounterId outerId = new CounterId(outer);
    CounterId inner = new CounterId(outer + "-00000000000000000015");
    CounterId after = new CounterId(outer + "-00000000015");
    counters.create(new CounterCreated(outerId, "outer"));
    for (int k = 0; k < 20; k++) {
      counters.transact(outerId, c -> c.increment("o"));
    }
    counters.create(new CounterCreated(inner, "inner"));
    for (int k = 0; k < 10; k++) {
      // 2.5 MB in all: more than two 1 MB scan pages, the middle one holding none of the outer stream.
      counters.transact(inner, c -> List.of(new Noted("x".repeat(250_000))));
    }
    counters.create(new CounterCreated(after, "after"));
    counters.transact(after, c -> c.increment("a"));
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), this::take)
        .replaySegments(1)
        .build();

    ReplayReport report = feed.replay("log");

    for (CounterId id : List.of(outerId, inner, after)) {
      assertEquals(FeedFixture.stored(counters, id.value()), taken.get(id.value()), id.value());
    }
    assertEquals(new ReplayReport("log", 3, 21 + 11 + 2), report);
  }

  /**
   * A position is asked of a projection the feed has and of a type it follows, as the in-memory feed asks:
   * a misspelt name would read 0 forever, an empty one failed with DynamoDB's validation error.
   */
  @Test
  void onlyARegisteredProjectionOfTheTypeItFollowsHasPositions() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    IndexedCounterRepository others = new IndexedCounterRepository(fixture.store, LayoutKind.JOURNAL, 0);
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), this::take).build();
    CounterId id = CounterId.random();
    TestDynamo.requests().reset();

    for (String name : List.of("lgo", "")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> feed.position(name, counters.definition(), id));
      assertEquals("projection '" + name + "' does not follow counter in this feed", e.getMessage());
    }
    IllegalArgumentException otherType = assertThrows(IllegalArgumentException.class,
        () -> feed.position("log", others.definition(), id));
    assertEquals("projection 'log' does not follow indexed-counter in this feed", otherType.getMessage());
    assertEquals(0, TestDynamo.requests().total());
    assertEquals(0, feed.position("log", counters.definition(), id));
  }

  @Test
  void onlyRegisteredProjectionsReplayOrReset() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), this::take).build();

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> feed.replay("lgo"));

    assertEquals("no projection 'lgo' is registered; this feed has [log]", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> feed.reset("lgo"));
  }

  /** The positions table is made by enableChangeFeed, not by createTablesIfMissing: the error says so. */
  @Test
  void aMissingPositionsTableIsNamedWithTheCallThatCreatesIt() {
    String table = "no-such-positions-" + UUID.randomUUID();
    DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withPositionsTable(table));
    CounterRepository counters = new CounterRepository(store);
    ChangeFeed feed = ChangeFeed.builder(store).projection("log", counters.definition(), this::take).build();

    MissingTableException e = assertThrows(MissingTableException.class,
        () -> feed.position("log", counters.definition(), CounterId.random()));

    assertEquals(List.of(table), e.tables());
    assertEquals("table '" + table + "' does not exist: create it with new TableProvisioner(client, config)"
        + ".enableChangeFeed() or as described in docs/operations.md", e.getMessage());

    // A replay fails at once: no wait brings the table.
    counters.create(new CounterCreated(CounterId.random(), "to replay"));
    ProjectionFailedException replay = assertThrows(ProjectionFailedException.class, () -> feed.replay("log"));
    assertEquals(1, replay.attempts());
    assertInstanceOf(MissingTableException.class, replay.getCause());
  }
}
