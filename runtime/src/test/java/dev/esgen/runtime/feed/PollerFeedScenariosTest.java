package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.faults.Fault;
import dev.esgen.runtime.faults.FaultInjector;
import dev.esgen.runtime.streams.CheckpointTable;
import dev.esgen.runtime.streams.StreamPoller;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.test.DynamoDbLocal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Stream pollers on DynamoDB Local's real stream of a journal table, feeding real change feeds, while
 * writers append: two pollers of one consumer at once, pollers stopped or abandoned mid-way, and lost
 * responses on checkpoint writes, lease writes and GetRecords.
 */
@SuppressWarnings("try") // pollers and the writer are closed mid-way on purpose, and again at the end
class PollerFeedScenariosTest {

  private static final String SECRET = "payload-secret-4111";

  /** One "process": a feed of its own with a plain and an exactly-once projection. */
  private static final class Process {
    final String name;
    final ChangeFeed feed;
    /** seq_nrs the plain projection saw, per stream, in delivery order. */
    final Map<String, List<Long>> seen = new ConcurrentHashMap<>();
    final List<long[]> calls = new CopyOnWriteArrayList<>();
    final String table;

    Process(String name, FeedFixture fixture, CounterRepository counters, CounterTotals totals,
        Map<String, List<Long>> allSeen) {
      this.name = name;
      this.table = counters.definition().layout() == dev.esgen.runtime.aggregate.LayoutKind.TIP
          ? fixture.config.tipTable() : fixture.config.journalTable();
      this.feed = ChangeFeed.builder(fixture.store)
          .projection("seen", counters.definition(), e -> {
            seen.computeIfAbsent(e.aggregateId(), k -> new CopyOnWriteArrayList<>()).add(e.seqNr());
            allSeen.computeIfAbsent(e.aggregateId(), k -> new CopyOnWriteArrayList<>()).add(e.seqNr());
          })
          .transactionalProjection("totals", counters.definition(), totals)
          .build();
    }
  }

  private static DynamoDbStreamsClient streamsClient(ExecutionInterceptor... interceptors) {
    return DynamoDbStreamsClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> List.of(interceptors).forEach(c::addExecutionInterceptor))
        .build();
  }

  /**
   * Clients that do not retry, with {@code faults}: every lost response or time-out reaches the poller, as
   * when the SDK's retries run out.
   */
  private static DynamoDbStreamsClient streamsClientWithoutRetries(FaultInjector faults) {
    return DynamoDbStreamsClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.addExecutionInterceptor(faults).retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  private static DynamoDbClient dynamoClientWithoutRetries(FaultInjector faults) {
    TestDynamo.client();
    return DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.addExecutionInterceptor(faults).retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  private static String checkpointTable() {
    String name = "feed-cp-" + UUID.randomUUID().toString().substring(0, 8);
    CheckpointTable.createIfMissing(TestDynamo.client(), name);
    return name;
  }

  private static StreamPoller.Builder poller(FeedFixture fixture, String checkpoints, Process process,
      DynamoDbStreamsClient streams, DynamoDbClient dynamo) {
    return StreamPoller.builder()
        .streamsClient(streams)
        .dynamoDbClient(dynamo)
        .tableName(process.table)
        .checkpointTable(checkpoints)
        .consumer("balances")
        .handler((shardId, records) -> {
          long start = System.nanoTime();
          process.feed.handle(shardId, records);
          process.calls.add(new long[] {start, System.nanoTime(), records.size()});
        })
        .batchSize(7)
        .pollInterval(Duration.ofMillis(20))
        .retryBackoff(Duration.ofMillis(10), Duration.ofMillis(50));
  }

  /** Appends to {@code ids} round-robin on a thread of its own until stopped. */
  private static final class Writer implements AutoCloseable {
    final AtomicBoolean stop = new AtomicBoolean();
    final Thread thread;
    final AtomicInteger appends = new AtomicInteger();

    Writer(CounterRepository counters, List<CounterId> ids) {
      thread = new Thread(() -> {
        int round = 0;
        while (!stop.get()) {
          CounterId id = ids.get(round % ids.size());
          List<CounterEvent> events = round % 5 == 0
              ? List.of(new Noted(SECRET))
              : List.of(new Incremented(1 + round % 3, "r" + round), new Incremented(1, SECRET));
          counters.transact(id, c -> events);
          appends.incrementAndGet();
          round++;
        }
      }, "writer");
      thread.start();
    }

    @Override
    public void close() {
      stop.set(true);
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static List<CounterId> create(CounterRepository counters, int count) {
    List<CounterId> ids = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      CounterId id = CounterId.random();
      counters.create(new CounterCreated(id, "c" + k));
      ids.add(id);
    }
    return ids;
  }

  private static void await(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + within + ": " + what);
      }
      Thread.sleep(20);
    }
  }

  private static boolean caughtUp(FeedFixture fixture, CounterRepository counters, List<CounterId> ids) {
    for (CounterId id : ids) {
      long last = counters.loadVersioned(id).seqNr();
      if (fixture.position("seen", id.value()) < last || fixture.position("totals", id.value()) < last) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every stream: the projection saw 1..last, each process in strictly increasing order, and the exactly-once
   * read model equals the fold of the stored events.
   */
  private static void assertDelivered(FeedFixture fixture, CounterRepository counters, CounterTotals totals,
      List<CounterId> ids, Map<String, List<Long>> allSeen, List<Process> processes, boolean eachOnce) {
    for (CounterId id : ids) {
      long last = counters.loadVersioned(id).seqNr();
      List<Long> union = allSeen.get(id.value()).stream().distinct().sorted().toList();
      List<Long> expected = new ArrayList<>();
      for (long n = 1; n <= last; n++) {
        expected.add(n);
      }
      assertEquals(expected, union, "events seen of " + id.value());
      for (Process process : processes) {
        List<Long> own = process.seen.getOrDefault(id.value(), List.of());
        for (int i = 1; i < own.size(); i++) {
          assertTrue(own.get(i) > own.get(i - 1), process.name + " saw " + id.value() + " out of order: " + own);
        }
      }
      if (eachOnce) {
        assertEquals(expected, allSeen.get(id.value()), "each event once in " + id.value());
      }
      long value = counters.load(id).value();
      long changes = FeedFixture.stored(counters, id.value()).stream()
          .filter(e -> !(e.event() instanceof Noted)).count();
      assertEquals(value, totals.total(id.value()), "read model total of " + id.value());
      assertEquals(changes, totals.changes(id.value()), "read model changes of " + id.value());
      assertEquals(last, fixture.position("totals", id.value()));
      assertEquals(last, fixture.position("seen", id.value()));
    }
  }

  private static Map<String, AttributeValue> checkpointItem(String table, String sortKey) {
    return TestDynamo.client().getItem(b -> b.tableName(table).consistentRead(true).key(Map.of(
        "pkey", AttributeValue.fromS("checkpoint#balances"), "skey", AttributeValue.fromS(sortKey)))).item();
  }

  // ---------------------------------------------------------------------------------------------------------
  // 1. Two pollers of one consumer at once, while writers append.

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(FeedFixture.Layout.class)
  void twoPollersWithoutALeaseBothReadAndTheFeedKeepsEveryStreamInOrder(FeedFixture.Layout layout) throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    List<CounterId> ids = create(counters, 4);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    String checkpoints = checkpointTable();
    Map<String, List<Long>> allSeen = new ConcurrentHashMap<>();
    Process a = new Process("a", fixture, counters, totals, allSeen);
    Process b = new Process("b", fixture, counters, totals, allSeen);
    try (DynamoDbStreamsClient streams = streamsClient();
        StreamPoller pa = poller(fixture, checkpoints, a, streams, TestDynamo.client()).build();
        StreamPoller pb = poller(fixture, checkpoints, b, streams, TestDynamo.client()).build()) {
      pa.start();
      pb.start();
      try (Writer writer = new Writer(counters, ids)) {
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 60);
      }
      await("both caught up", Duration.ofSeconds(8), () -> caughtUp(fixture, counters, ids));
      assertTrue(pa.isRunning() && pb.isRunning(), pa.failure() + " / " + pb.failure());
    }
    assertDelivered(fixture, counters, totals, ids, allSeen, List.of(a, b), false);
    assertFalse(a.calls.isEmpty() || b.calls.isEmpty(), "both pollers read without a lease");
  }

  @Test
  void twoLeasedPollersReadOneAtATimeAndTheSecondTakesOverWhenTheFirstCloses() throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = create(counters, 4);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    String checkpoints = checkpointTable();
    Map<String, List<Long>> allSeen = new ConcurrentHashMap<>();
    Process a = new Process("a", fixture, counters, totals, allSeen);
    Process b = new Process("b", fixture, counters, totals, allSeen);
    try (DynamoDbStreamsClient streams = streamsClient();
        StreamPoller pa = poller(fixture, checkpoints, a, streams, TestDynamo.client())
            .lease(Duration.ofSeconds(3)).leaseOwner("a").build();
        StreamPoller pb = poller(fixture, checkpoints, b, streams, TestDynamo.client())
            .lease(Duration.ofSeconds(3)).leaseOwner("b").build()) {
      pa.start();
      await("a holds the lease and reads", Duration.ofSeconds(5), () -> !a.calls.isEmpty());
      pb.start();
      try (Writer writer = new Writer(counters, ids)) {
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 30);
        pa.close();
        long closedAt = System.nanoTime();
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 60);
        await("b takes over at once after a's close", Duration.ofSeconds(2), () -> !b.calls.isEmpty());
        long bFirst = b.calls.get(0)[0];
        for (long[] call : a.calls) {
          assertTrue(call[1] <= bFirst, "a handled a batch after b took over");
        }
        assertTrue(bFirst >= closedAt, "b read while a held the lease");
      }
      await("b caught up", Duration.ofSeconds(8), () -> caughtUp(fixture, counters, ids));
    }
    // One holder at a time and no stall: every event was seen once, by one process or the other.
    assertDelivered(fixture, counters, totals, ids, allSeen, List.of(a, b), true);
    assertTrue(checkpointItem(checkpoints, "lease").isEmpty(), "b gave the lease up when closed");
  }

  // ---------------------------------------------------------------------------------------------------------
  // 2. A poller stopped by an Error, or abandoned, and another taking over.

  @Test
  void anErrorFromTheHandlerStopsThePollerAndAnotherTakesOverAfterTheLeaseExpires() throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = create(counters, 3);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    String checkpoints = checkpointTable();
    Map<String, List<Long>> allSeen = new ConcurrentHashMap<>();
    Process a = new Process("a", fixture, counters, totals, allSeen);
    Process b = new Process("b", fixture, counters, totals, allSeen);
    AtomicInteger aCalls = new AtomicInteger();
    Duration lease = Duration.ofMillis(1500);
    try (DynamoDbStreamsClient streams = streamsClient();
        StreamPoller pb = poller(fixture, checkpoints, b, streams, TestDynamo.client())
            .lease(lease).leaseOwner("b").build()) {
      // a's third batch is handed to the feed, then the handler throws an Error: handled, not checkpointed.
      StreamPoller pa = StreamPoller.builder()
          .streamsClient(streams).dynamoDbClient(TestDynamo.client())
          .tableName(fixture.config.journalTable()).checkpointTable(checkpoints).consumer("balances")
          .handler((shardId, records) -> {
            a.feed.handle(shardId, records);
            if (aCalls.incrementAndGet() == 3) {
              throw new AssertionError("killed mid-way");
            }
          })
          .batchSize(5).pollInterval(Duration.ofMillis(20)).retryBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
          .lease(lease).leaseOwner("a").build();
      try (Writer writer = new Writer(counters, ids)) {
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 20);
        pa.start();
        await("a stops", Duration.ofSeconds(5), () -> !pa.isRunning());
        long stoppedAt = System.nanoTime();
        assertTrue(pa.failure().isPresent());
        await("a's own thread ends once it stopped by itself", Duration.ofSeconds(2),
            () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("esgen-stream-poller-balances") && t.isAlive()));
        pb.start();
        await("b takes over within the lease", lease.plusSeconds(2), () -> !b.calls.isEmpty());
        long tookOver = Duration.ofNanos(b.calls.get(0)[0] - stoppedAt).toMillis();
        assertTrue(tookOver <= lease.toMillis() + 1000, "took " + tookOver + " ms");
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 50);
      }
      await("b caught up", Duration.ofSeconds(8), () -> caughtUp(fixture, counters, ids));
      // Abandoned without close(): its lease is left to expire, its thread is gone.
    }
    assertDelivered(fixture, counters, totals, ids, allSeen, List.of(a, b), false);
  }

  @Test
  void aPollerClosedByItsHandlerMidBatchCheckpointsItAndTheNextGoesOnWithNothingSkipped() throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = create(counters, 3);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    String checkpoints = checkpointTable();
    Map<String, List<Long>> allSeen = new ConcurrentHashMap<>();
    Process a = new Process("a", fixture, counters, totals, allSeen);
    Process b = new Process("b", fixture, counters, totals, allSeen);
    AtomicInteger aCalls = new AtomicInteger();
    StreamPoller[] holder = new StreamPoller[1];
    try (DynamoDbStreamsClient streams = streamsClient()) {
      try (Writer writer = new Writer(counters, ids)) {
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 20);
        StreamPoller pa = StreamPoller.builder()
            .streamsClient(streams).dynamoDbClient(TestDynamo.client())
            .tableName(fixture.config.journalTable()).checkpointTable(checkpoints).consumer("balances")
            .handler((shardId, records) -> {
              a.feed.handle(shardId, records.subList(0, records.size() / 2));
              if (aCalls.incrementAndGet() == 2) {
                holder[0].close();
              }
              a.feed.handle(shardId, records);
            })
            .batchSize(6).pollInterval(Duration.ofMillis(20)).retryBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
            .lease(Duration.ofSeconds(30)).leaseOwner("a").build();
        holder[0] = pa;
        pa.start();
        await("a closed", Duration.ofSeconds(5), () -> !pa.isRunning());
        assertTrue(pa.failure().isEmpty());
        // The lease was released: b, another owner, reads at once although the lease lasts 30 s.
        StreamPoller pb = poller(fixture, checkpoints, b, streams, TestDynamo.client())
            .lease(Duration.ofSeconds(30)).leaseOwner("b").build();
        pb.start();
        await("b reads at once", Duration.ofSeconds(3), () -> !b.calls.isEmpty());
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 40);
        writer.close();
        await("b caught up", Duration.ofSeconds(8), () -> caughtUp(fixture, counters, ids));
        pb.close();
      }
    }
    assertEquals(2, aCalls.get(), "a handed no batch over after the one it was closed in");
    assertDelivered(fixture, counters, totals, ids, allSeen, List.of(a, b), false);
  }

  @Test
  void closeFromAnotherThreadWaitsForTheBatchInHandCheckpointsItAndGivesTheLeaseUp() throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = create(counters, 3);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    String checkpoints = checkpointTable();
    Map<String, List<Long>> allSeen = new ConcurrentHashMap<>();
    Process a = new Process("a", fixture, counters, totals, allSeen);
    Process b = new Process("b", fixture, counters, totals, allSeen);
    java.util.concurrent.CountDownLatch inHandler = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    AtomicInteger aCalls = new AtomicInteger();
    List<String> lastOfBatch = new CopyOnWriteArrayList<>();
    try (DynamoDbStreamsClient streams = streamsClient()) {
      try (Writer writer = new Writer(counters, ids)) {
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 30);
      }
      StreamPoller pa = StreamPoller.builder()
          .streamsClient(streams).dynamoDbClient(TestDynamo.client())
          .tableName(fixture.config.journalTable()).checkpointTable(checkpoints).consumer("balances")
          .handler((shardId, records) -> {
            a.feed.handle(shardId, records.subList(0, records.size() / 2));
            if (aCalls.incrementAndGet() == 2) {
              inHandler.countDown();
              quietly(() -> release.await());
            }
            a.feed.handle(shardId, records);
            lastOfBatch.add(records.get(records.size() - 1).dynamodb().sequenceNumber());
          })
          .batchSize(6).pollInterval(Duration.ofMillis(20)).retryBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
          .lease(Duration.ofSeconds(30)).leaseOwner("a").build();
      pa.start();
      assertTrue(inHandler.await(5, java.util.concurrent.TimeUnit.SECONDS));
      Thread closing = new Thread(pa::close);
      closing.start();
      closing.join(300);
      assertTrue(closing.isAlive(), "close() waits for the batch in hand");
      release.countDown();
      closing.join(5000);
      assertFalse(closing.isAlive(), "close() returned after the batch");
      assertEquals(2, aCalls.get(), "no batch after the one in hand");
      assertEquals(lastOfBatch.get(1), checkpointItemOfOnlyShard(checkpoints).get("sequence_number").s(),
          "the batch in hand was checkpointed");
      assertTrue(checkpointItem(checkpoints, "lease").isEmpty(), "the lease was given up");
      assertTrue(Thread.getAllStackTraces().keySet().stream()
          .noneMatch(t -> t.getName().equals("esgen-stream-poller-balances") && t.isAlive()), "its thread ended");
      try (StreamPoller pb = poller(fixture, checkpoints, b, streams, TestDynamo.client())
          .lease(Duration.ofSeconds(30)).leaseOwner("b").build()) {
        pb.start();
        await("b caught up", Duration.ofSeconds(8), () -> caughtUp(fixture, counters, ids));
      }
    }
    assertDelivered(fixture, counters, totals, ids, allSeen, List.of(a, b), true);
  }

  @Test
  void aHandlerCallOutlastingTheLeaseLetsTheOtherPollerTakeOverAndTheFeedKeepsOrder() throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = create(counters, 3);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    String checkpoints = checkpointTable();
    Map<String, List<Long>> allSeen = new ConcurrentHashMap<>();
    Process a = new Process("a", fixture, counters, totals, allSeen);
    Process b = new Process("b", fixture, counters, totals, allSeen);
    Duration lease = Duration.ofMillis(800);
    AtomicInteger aCalls = new AtomicInteger();
    List<long[]> aEnds = new CopyOnWriteArrayList<>();
    try (DynamoDbStreamsClient streams = streamsClient();
        StreamPoller pb = poller(fixture, checkpoints, b, streams, TestDynamo.client())
            .lease(lease).leaseOwner("b").build();
        StreamPoller pa = StreamPoller.builder()
            .streamsClient(streams).dynamoDbClient(TestDynamo.client())
            .tableName(fixture.config.journalTable()).checkpointTable(checkpoints).consumer("balances")
            .handler((shardId, records) -> {
              if (aCalls.incrementAndGet() == 2) {
                // stalls past the lease, while b takes over
                quietly(() -> await("b took over", Duration.ofSeconds(5), () -> !b.calls.isEmpty()));
              }
              a.feed.handle(shardId, records);
              aEnds.add(new long[] {System.nanoTime()});
            })
            .batchSize(5).pollInterval(Duration.ofMillis(20)).retryBackoff(Duration.ofMillis(10), Duration.ofMillis(50))
            .lease(lease).leaseOwner("a").build()) {
      try (Writer writer = new Writer(counters, ids)) {
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 20);
        pa.start();
        await("a read", Duration.ofSeconds(5), () -> aCalls.get() >= 1);
        pb.start();
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 50);
      }
      await("caught up", Duration.ofSeconds(8), () -> caughtUp(fixture, counters, ids));
      assertEquals(2, aCalls.get(), "the former holder handed no further batch over");
    }
    assertDelivered(fixture, counters, totals, ids, allSeen, List.of(a, b), false);
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(longs = {11, 12, 13})
  void twoLeasedPollersWithFaultsOnEveryRequestOfTheirsSkipNothing(long seed) throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = create(counters, 3);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    String checkpoints = checkpointTable();
    Map<String, List<Long>> allSeen = new ConcurrentHashMap<>();
    List<Process> processes = List.of(new Process("a", fixture, counters, totals, allSeen),
        new Process("b", fixture, counters, totals, allSeen));
    List<FaultInjector> injectors = new ArrayList<>();
    List<AutoCloseable> resources = new ArrayList<>();
    List<StreamPoller> pollers = new ArrayList<>();
    try {
      for (Process process : processes) {
        FaultInjector dynamoFaults = FaultInjector.builder(seed * 7 + pollers.size())
            .rate(Fault.LOST_RESPONSE, 0.15).rate(Fault.TIMEOUT_AFTER_APPLY, 0.1).rate(Fault.TIMEOUT_BEFORE_SEND, 0.1)
            .build();
        FaultInjector streamFaults = FaultInjector.builder(seed * 13 + pollers.size())
            .rate(Fault.LOST_RESPONSE, 0.15).rate(Fault.TIMEOUT_AFTER_APPLY, 0.1).rate(Fault.TIMEOUT_BEFORE_SEND, 0.1)
            .build();
        injectors.add(dynamoFaults);
        injectors.add(streamFaults);
        DynamoDbStreamsClient streams = streamsClientWithoutRetries(streamFaults);
        DynamoDbClient dynamo = dynamoClientWithoutRetries(dynamoFaults);
        resources.add(streams);
        resources.add(dynamo);
        StreamPoller poller = poller(fixture, checkpoints, process, streams, dynamo)
            .lease(Duration.ofMillis(600)).leaseOwner(process.name).build();
        pollers.add(poller);
      }
      pollers.forEach(StreamPoller::start);
      try (Writer writer = new Writer(counters, ids)) {
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 30);
        pollers.get(0).close();   // the other takes over, faults and all
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 60);
      }
      await("caught up despite the faults", Duration.ofSeconds(9), () -> caughtUp(fixture, counters, ids));
      assertTrue(pollers.get(1).isRunning(), String.valueOf(pollers.get(1).failure()));
    } finally {
      for (StreamPoller poller : pollers) {
        poller.close();
      }
      for (AutoCloseable resource : resources) {
        resource.close();
      }
    }
    // Which requests met a fault depends on timing; that some did, does not.
    assertTrue(injectors.stream().mapToLong(FaultInjector::injectedTotal).sum() > 0);
    assertDelivered(fixture, counters, totals, ids, allSeen, processes, false);
  }

  private interface Interruptible {
    void run() throws InterruptedException;
  }

  private static void quietly(Interruptible action) {
    try {
      action.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, AttributeValue> checkpointItemOfOnlyShard(String table) {
    List<Map<String, AttributeValue>> shards = TestDynamo.client().query(q -> q.tableName(table).consistentRead(true)
        .keyConditionExpression("pkey = :p AND begins_with(skey, :s)")
        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("checkpoint#balances"),
            ":s", AttributeValue.fromS("shard#")))).items();
    assertEquals(1, shards.size(), "DynamoDB Local streams one shard");
    return shards.get(0);
  }

  // ---------------------------------------------------------------------------------------------------------
  // 3. Lost responses and time-outs on checkpoint writes, lease writes and GetRecords.

  @Test
  void lostResponsesAndTimeoutsOnCheckpointsLeasesAndGetRecordsSkipNothingStallNothingAndWarnWithoutPayloads()
      throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = create(counters, 3);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    String checkpoints = checkpointTable();
    Map<String, List<Long>> allSeen = new ConcurrentHashMap<>();
    Process a = new Process("a", fixture, counters, totals, allSeen);
    FaultInjector dynamoFaults = FaultInjector.builder(5)
        .rate(Fault.LOST_RESPONSE, 0.2).rate(Fault.TIMEOUT_AFTER_APPLY, 0.15).rate(Fault.TIMEOUT_BEFORE_SEND, 0.1)
        .targets(r -> (r instanceof PutItemRequest put && put.tableName().equals(checkpoints))
            || (r instanceof DeleteItemRequest delete && delete.tableName().equals(checkpoints)))
        .build();
    FaultInjector streamFaults = FaultInjector.builder(6)
        .rate(Fault.LOST_RESPONSE, 0.2).rate(Fault.TIMEOUT_AFTER_APPLY, 0.15).rate(Fault.TIMEOUT_BEFORE_SEND, 0.1)
        .targets(r -> r instanceof GetRecordsRequest)
        .build();
    Logger log = (Logger) LoggerFactory.getLogger(StreamPoller.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    Level level = log.getLevel();
    log.setLevel(Level.DEBUG);
    log.addAppender(appender);
    try (DynamoDbStreamsClient streams = streamsClientWithoutRetries(streamFaults);
        DynamoDbClient dynamo = dynamoClientWithoutRetries(dynamoFaults);
        StreamPoller pa = poller(fixture, checkpoints, a, streams, dynamo)
            .lease(Duration.ofSeconds(2)).leaseOwner("a").build()) {
      pa.start();
      try (Writer writer = new Writer(counters, ids)) {
        await("appends", Duration.ofSeconds(5), () -> writer.appends.get() >= 40);
      }
      await("caught up despite the faults", Duration.ofSeconds(9), () -> caughtUp(fixture, counters, ids));
      assertTrue(pa.isRunning(), String.valueOf(pa.failure()));
    } finally {
      log.detachAppender(appender);
      log.setLevel(level);
    }
    assertTrue(dynamoFaults.injectedTotal() > 0 && streamFaults.injectedTotal() > 0,
        dynamoFaults.injected() + " / " + streamFaults.injected());
    assertDelivered(fixture, counters, totals, ids, allSeen, List.of(a), false);
    List<ILoggingEvent> warnings = appender.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
    assertFalse(warnings.isEmpty(), "failures are logged at WARN");
    for (ILoggingEvent event : appender.list) {
      String text = event.getFormattedMessage()
          + (event.getThrowableProxy() == null ? "" : event.getThrowableProxy().getMessage());
      assertFalse(text.contains(SECRET), "a record's content in the log: " + text);
    }
  }
}
