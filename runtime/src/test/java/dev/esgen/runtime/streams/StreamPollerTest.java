package dev.esgen.runtime.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.TableSchemaMismatchException;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import dev.esgen.runtime.internal.streams.Checkpoint;
import dev.esgen.runtime.internal.streams.CheckpointStore;
import dev.esgen.test.DynamoDbLocal;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.TablePrefix;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** The poller against DynamoDB Local's real stream (one shard) and real checkpoint items. */
@ExtendWith(DynamoDbLocalExtension.class)
class StreamPollerTest {

  private static final String SECRET = "4111-1111-1111-1111";

  private static DynamoDbClient client;
  private static TablePrefix tables;
  private static DynamoDbStreamsClient streams;
  private static String checkpoints;
  private static int tableCount;

  @BeforeAll
  static void setUp(DynamoDbClient dynamo, TablePrefix prefix) {
    client = dynamo;
    tables = prefix;
    streams = StreamTable.streamsClient();
    checkpoints = prefix.name("checkpoints");
    assertTrue(CheckpointTable.createIfMissing(client, checkpoints));
  }

  @AfterAll
  static void closeStreams() {
    streams.close();
  }

  private static StreamTable newTable() {
    return StreamTable.create(client, tables.name("events-" + ++tableCount));
  }

  private static StreamPoller.Builder poller(StreamTable table, String consumer, StreamRecordsHandler handler) {
    return StreamPoller.builder()
        .streamsClient(streams)
        .dynamoDbClient(client)
        .tableName(table.name())
        .checkpointTable(checkpoints)
        .consumer(consumer)
        .handler(handler)
        .retryBackoff(Duration.ZERO, Duration.ZERO);
  }

  /** Polls until a poll finds nothing more to read; at most 100 polls. */
  static List<PollResult> pollUntilIdle(StreamPoller poller) {
    List<PollResult> results = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      PollResult result = poller.pollOnce();
      results.add(result);
      if (!result.moreToRead() && result.failingShards().isEmpty()) {
        return results;
      }
    }
    throw new AssertionError("the stream did not become idle within 100 polls: " + results.get(99));
  }

  private static Map<String, AttributeValue> checkpointItem(String consumer, String shardId) {
    return client.getItem(b -> b.tableName(checkpoints).consistentRead(true).key(Map.of(
        "pkey", AttributeValue.fromS("checkpoint#" + consumer),
        "skey", AttributeValue.fromS("shard#" + shardId)))).item();
  }

  @Test
  void deliversEveryRecordInOrderInBatchesAndCheckpointsTheLast() {
    StreamTable table = newTable();
    List<String> written = table.write(25, SECRET);
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = poller(table, "in-order", handler).batchSize(10).build()) {
      pollUntilIdle(poller);
    }

    assertEquals(written, handler.takenKeys());
    assertEquals(List.of(10, 10, 5), handler.calls().stream().map(c -> c.records().size()).toList());
    List<Record> taken = handler.taken();
    String shardId = handler.calls().get(0).shardId();
    Map<String, AttributeValue> checkpoint = checkpointItem("in-order", shardId);
    assertEquals(taken.get(taken.size() - 1).dynamodb().sequenceNumber(), checkpoint.get("sequence_number").s());
    assertFalse(checkpoint.get("finished").bool(), "DynamoDB Local's one shard stays open");
    assertEquals("TRIM_HORIZON", checkpoint.get("start_at").s());
  }

  @Test
  void aRestartedPollerGoesOnAfterTheCheckpointWithNothingLostOrRepeated() {
    StreamTable table = newTable();
    List<String> written = new ArrayList<>(table.write(20, SECRET));
    RecordingHandler first = new RecordingHandler();
    try (StreamPoller poller = poller(table, "restart", first).batchSize(7).build()) {
      poller.pollOnce();
      poller.pollOnce();
    }
    written.addAll(table.write(5, SECRET));

    RecordingHandler second = new RecordingHandler();
    try (StreamPoller poller = poller(table, "restart", second).batchSize(7).build()) {
      pollUntilIdle(poller);
    }

    assertEquals(written.subList(0, 14), first.takenKeys());
    assertEquals(written.subList(14, 25), second.takenKeys());
  }

  @Test
  void aBatchHandledButNotCheckpointedBeforeACrashIsDeliveredAgain() {
    StreamTable table = newTable();
    List<String> written = table.write(12, SECRET);
    AtomicInteger checkpointWrites = new AtomicInteger();
    RecordingHandler crashed = new RecordingHandler();
    // The poller "crashes" after its handler took the first batch: the checkpoint never reaches the table,
    // and the poller is abandoned without close().
    try (DynamoDbClient failingCheckpoints = clientFailingCheckpointWrites(checkpointWrites)) {
      StreamPoller poller = poller(table, "crash", crashed).dynamoDbClient(failingCheckpoints).batchSize(5).build();
      PollResult result = poller.pollOnce();
      assertEquals(1, checkpointWrites.get());
      assertEquals(1, result.failingShards().size(), "the unstored checkpoint keeps the batch pending");
    }

    RecordingHandler restarted = new RecordingHandler();
    try (StreamPoller poller = poller(table, "crash", restarted).batchSize(5).build()) {
      pollUntilIdle(poller);
    }

    assertEquals(written.subList(0, 5), crashed.takenKeys());
    assertEquals(written, restarted.takenKeys(), "at least once: the first batch again, then the rest");
  }

  @Test
  void aFailingHandlerGetsTheSameBatchAgainUntilItTakesItAndNothingOvertakes() {
    StreamTable table = newTable();
    List<String> written = table.write(9, SECRET);
    RecordingHandler handler = new RecordingHandler(3, "projection is down");

    try (StreamPoller poller = poller(table, "failing", handler).batchSize(4).build()) {
      for (int i = 0; i < 3; i++) {
        PollResult failed = poller.pollOnce();
        assertEquals(0, failed.records());
        assertEquals(1, failed.failingShards().size());
      }
      pollUntilIdle(poller);
    }

    List<RecordingHandler.Call> calls = handler.calls();
    for (int i = 1; i < 4; i++) {
      assertSame(calls.get(0).records(), calls.get(i).records(), "attempt " + (i + 1) + " gets the same batch");
    }
    assertEquals(written, handler.takenKeys());
  }

  @Test
  void aCheckedExceptionFromTheHandlerIsAFailureLikeAnyOtherAndTheBatchIsSentAgain() {
    StreamTable table = newTable();
    List<String> written = table.write(3, SECRET);
    RecordingHandler taking = new RecordingHandler();
    AtomicInteger calls = new AtomicInteger();
    StreamRecordsHandler failingOnce = (shard, records) -> {
      if (calls.incrementAndGet() == 1) {
        // As a Kotlin handler, or one with a sneaky throw, can throw it.
        throw StreamPollerTest.<RuntimeException>sneakily(new IOException("the read model is unreachable"));
      }
      taking.handle(shard, records);
    };

    try (StreamPoller poller = poller(table, "checked", failingOnce).build()) {
      PollResult failed = poller.pollOnce();
      assertEquals(1, failed.failingShards().size());
      pollUntilIdle(poller);
      assertTrue(poller.failure().isEmpty());
    }

    assertEquals(2, calls.get());
    assertEquals(written, taking.takenKeys());
  }

  /** Throws {@code checked} undeclared. */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneakily(Throwable checked) throws T {
    throw (T) checked;
  }

  @Test
  void aFailedBatchWaitsForItsBackoffBeforeItIsSentAgain() {
    StreamTable table = newTable();
    table.write(3, SECRET);
    MutableClock clock = new MutableClock();
    RecordingHandler handler = new RecordingHandler(2, "projection is down");

    try (StreamPoller poller = poller(table, "backoff", handler)
        .clock(clock).retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(3)).build()) {
      poller.pollOnce();
      assertEquals(1, handler.calls().size());
      clock.advance(Duration.ofMillis(1999));
      assertEquals(1, poller.pollOnce().failingShards().size());
      assertEquals(1, handler.calls().size(), "still backing off");
      clock.advance(Duration.ofMillis(1));
      poller.pollOnce();
      assertEquals(2, handler.calls().size());
      clock.advance(Duration.ofMillis(2999));
      poller.pollOnce();
      assertEquals(2, handler.calls().size(), "the second wait doubled, capped at 3 s");
      clock.advance(Duration.ofMillis(1));
      assertEquals(3, poller.pollOnce().records());
    }
    assertEquals(3, handler.calls().size());
  }

  @Test
  void aLatestConsumerSkipsWhatTheStreamHeldWhenItFirstLookedAndATrimHorizonOneDoesNot() {
    StreamTable table = newTable();
    List<String> before = table.write(4, SECRET);
    RecordingHandler latest = new RecordingHandler();
    RecordingHandler horizon = new RecordingHandler();
    try (StreamPoller fromLatest = poller(table, "latest", latest).startPosition(StartPosition.LATEST).build();
        StreamPoller fromHorizon = poller(table, "horizon", horizon).build()) {
      fromLatest.pollOnce();
      List<String> after = table.write(3, SECRET);

      pollUntilIdle(fromLatest);
      pollUntilIdle(fromHorizon);

      assertEquals(after, latest.takenKeys());
      List<String> all = new ArrayList<>(before);
      all.addAll(after);
      assertEquals(all, horizon.takenKeys());
    }
  }

  @Test
  void startedItPollsOnItsOwnThreadUntilClosed() throws InterruptedException {
    StreamTable table = newTable();
    List<String> written = table.write(6, SECRET);
    RecordingHandler handler = new RecordingHandler();
    StreamPoller poller = poller(table, "threaded", handler).pollInterval(Duration.ofMillis(20)).build();

    poller.start();
    assertTrue(poller.isRunning());
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (handler.taken().size() < 6 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    poller.close();
    int takenAtClose = handler.taken().size();
    table.write(2, SECRET);
    Thread.sleep(200);

    assertEquals(written, handler.takenKeys());
    assertEquals(6, takenAtClose);
    assertFalse(poller.isRunning());
    assertTrue(poller.failure().isEmpty());
    assertTrue(handler.calls().stream().allMatch(c -> c.thread().equals("esgen-stream-poller-threaded")));
    assertThrows(IllegalStateException.class, poller::pollOnce);
    assertThrows(IllegalStateException.class, poller::start);
  }

  @Test
  void startedOnAGivenExecutorItPollsThereAndLeavesTheExecutorRunningWhenClosed() throws Exception {
    StreamTable table = newTable();
    List<String> written = table.write(4, SECRET);
    RecordingHandler handler = new RecordingHandler();
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "app-executor"));
    try {
      StreamPoller poller = poller(table, "on-executor", handler).executor(executor)
          .pollInterval(Duration.ofMillis(20)).build();
      poller.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (handler.taken().size() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      poller.close();

      assertEquals(written, handler.takenKeys());
      assertTrue(handler.calls().stream().allMatch(c -> c.thread().equals("app-executor")));
      assertFalse(executor.isShutdown());
      assertEquals("still usable", executor.submit(() -> "still usable").get());
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void aStartedPollerStopsOnAFailurePollingCannotFixAndSaysWhy() throws InterruptedException {
    RecordingHandler handler = new RecordingHandler();
    StreamPoller poller = StreamPoller.builder()
        .streamsClient(streams).dynamoDbClient(client)
        .tableName(tables.name("no-such-table"))
        .checkpointTable(checkpoints).consumer("stops").handler(handler)
        .build();

    poller.start();
    assertTrue(PollerWaits.stopsWithin(poller, Duration.ofSeconds(30)), "the poller stopped by itself");
    poller.close();

    assertTrue(poller.failure().orElseThrow() instanceof MissingTableException);
  }

  @Test
  void aStartedPollerThatStoppedByItselfEndsItsOwnThreadWithoutWaitingForClose() throws InterruptedException {
    StreamTable table = newTable();
    table.write(2, SECRET);
    StreamPoller poller = poller(table, "stops-by-error", (shard, records) -> {
      throw new AssertionError("a handler's Error");
    }).build();

    poller.start();
    assertTrue(PollerWaits.stopsWithin(poller, Duration.ofSeconds(30)), "the poller stopped by itself");
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (pollerThreadAlive("esgen-stream-poller-stops-by-error") && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }

    // Its thread is not a daemon: left running, it would keep the JVM from exiting until close().
    assertFalse(pollerThreadAlive("esgen-stream-poller-stops-by-error"), "the stopped poller's own thread ended");
    assertInstanceOf(AssertionError.class, poller.failure().orElseThrow().getCause());
    poller.close();
  }

  @Test
  void aThrottledGetRecordsIsTriedAgainAfterTheShardsBackoffLikeAnyOtherThrottling() {
    StreamTable table = newTable();
    List<String> written = table.write(4, SECRET);
    AtomicInteger throttles = new AtomicInteger(1);
    RecordingHandler handler = new RecordingHandler();
    try (DynamoDbStreamsClient throttled = streamsClientThrottlingGetRecords(throttles);
        StreamPoller poller = poller(table, "throttled", handler).streamsClient(throttled).build()) {
      PollResult first = poller.pollOnce();

      assertEquals(1, first.failingShards().size(), "DynamoDB Streams' LimitExceededException is its throttling");
      assertEquals(0, first.records());
      pollUntilIdle(poller);
    }
    assertEquals(0, throttles.get());
    assertEquals(written, handler.takenKeys());
  }

  /** A streams client of DynamoDB Local whose next {@code throttles} GetRecords are refused as DynamoDB Streams throttles them. */
  private static DynamoDbStreamsClient streamsClientThrottlingGetRecords(AtomicInteger throttles) {
    ExecutionInterceptor throttle = new ExecutionInterceptor() {
      @Override
      public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        if (context.request() instanceof GetRecordsRequest && throttles.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          throw LimitExceededException.builder()
              .statusCode(400)
              .message("Rate exceeded for shard")
              .awsErrorDetails(AwsErrorDetails.builder().errorCode("LimitExceededException")
                  .errorMessage("Rate exceeded for shard").build())
              .build();
        }
      }
    };
    return streamsClientWith(throttle);
  }

  @Test
  void aStreamThatDoesNotExistStopsAStartedPollerThatSaysWhichOnceAtError() throws InterruptedException {
    StreamTable table = newTable();
    String current = client.describeTable(b -> b.tableName(table.name())).table().latestStreamArn();
    // The table's stream before it was switched off and on again: gone, as DynamoDB drops it after 24 hours.
    String gone = current.substring(0, current.lastIndexOf('/') + 1) + "2020-01-01T00:00:00.000";
    MutableClock clock = new MutableClock();
    Logger logger = (Logger) LoggerFactory.getLogger("dev.esgen");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.setLevel(Level.INFO);
    logger.addAppender(logged);
    StreamPoller poller = StreamPoller.builder()
        .streamsClient(streams).dynamoDbClient(client).streamArn(gone)
        .checkpointTable(checkpoints).consumer("stream-gone").handler(new RecordingHandler())
        .clock(clock).retryBackoff(Duration.ZERO, Duration.ZERO)
        .build();
    boolean stopped;
    try {
      assertThrows(ResourceNotFoundException.class, poller::pollOnce, "a stream being enabled is not found either");
      clock.advance(Duration.ofMinutes(1));
      poller.start();
      stopped = PollerWaits.stopsWithin(poller, Duration.ofSeconds(10));
      poller.close();
    } finally {
      logger.detachAppender(logged);
      logger.setLevel(null);
    }

    assertTrue(stopped, "the poller stopped by itself");
    MissingStreamException e = assertInstanceOf(MissingStreamException.class, poller.failure().orElseThrow());
    assertEquals(gone, e.streamArn());
    assertEquals("stream-gone", e.consumer());
    assertInstanceOf(ResourceNotFoundException.class, e.getCause());
    List<ILoggingEvent> errors = logged.list.stream().filter(event -> event.getLevel() == Level.ERROR).toList();
    assertEquals(1, errors.size(), "one ERROR: " + errors);
    assertTrue(errors.get(0).getFormattedMessage().contains(gone), errors.get(0).getFormattedMessage());
  }

  @Test
  void aStreamThatIsGoneWhileThePollerReadsItStopsItAfterAMinuteOfNotFound() {
    StreamTable table = newTable();
    List<String> written = table.write(3, SECRET);
    String arn = client.describeTable(b -> b.tableName(table.name())).table().latestStreamArn();
    MutableClock clock = new MutableClock();
    AtomicBoolean gone = new AtomicBoolean();
    List<String> notFound = new CopyOnWriteArrayList<>();
    RecordingHandler handler = new RecordingHandler();

    try (DynamoDbStreamsClient vanishing = streamsClientNotFindingAnyStreamWhile(gone, notFound);
        StreamPoller poller = poller(table, "gone-later", handler).streamsClient(vanishing).clock(clock).build()) {
      pollUntilIdle(poller);
      // DynamoDB Local keeps a disabled stream, or a deleted table's, readable for ever; DynamoDB for 24 hours.
      gone.set(true);

      assertThrows(ResourceNotFoundException.class, poller::pollOnce);
      assertEquals(List.of("GetRecordsRequest", "DescribeStreamRequest"), notFound);
      clock.advance(Duration.ofSeconds(59));
      assertThrows(ResourceNotFoundException.class, poller::pollOnce);
      clock.advance(Duration.ofSeconds(1));
      MissingStreamException e = assertThrows(MissingStreamException.class, poller::pollOnce);
      assertEquals(arn, e.streamArn());
      assertTrue(e.getMessage().contains("stream " + arn + " of consumer 'gone-later' does not exist"), e.getMessage());
      assertTrue(e.getMessage().contains("partition key 'checkpoint#gone-later' of table '" + checkpoints + "'"),
          e.getMessage());
    }
    assertEquals(written, handler.takenKeys());
  }

  @Test
  void aStreamSwitchedOffAndOnStopsAStartedPollerOnceAllOfItWasDeliveredAndNamesTheNewStream()
      throws InterruptedException {
    StreamTable table = newTable();
    List<String> written = table.write(4, SECRET);
    String old = client.describeTable(b -> b.tableName(table.name())).table().latestStreamArn();
    RecordingHandler handler = new RecordingHandler();
    CountDownLatch handling = new CountDownLatch(1);
    CountDownLatch switched = new CountDownLatch(1);
    // The stream is switched off and on while the batch is in hand, so that the poller sees both at once.
    StreamRecordsHandler waitingForTheSwitch = (shardId, records) -> {
      handling.countDown();
      try {
        assertTrue(switched.await(30, TimeUnit.SECONDS));
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      handler.handle(shardId, records);
    };
    Logger logger = (Logger) LoggerFactory.getLogger("dev.esgen");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.setLevel(Level.INFO);
    logger.addAppender(logged);
    StreamPoller poller = poller(table, "switched", handler).handler(waitingForTheSwitch)
        .pollInterval(Duration.ofMillis(20)).build();
    String current;
    boolean stopped;
    try {
      poller.start();
      assertTrue(handling.await(30, TimeUnit.SECONDS), "the poller took the first batch");
      switchStream(table, false);
      table.write(2, SECRET);
      switchStream(table, true);
      current = client.describeTable(b -> b.tableName(table.name())).table().latestStreamArn();
      table.write(1, SECRET);
      switched.countDown();
      stopped = PollerWaits.stopsWithin(poller, Duration.ofSeconds(10));
      poller.close();
    } finally {
      logger.detachAppender(logged);
      logger.setLevel(null);
    }

    assertTrue(stopped, "the poller stopped by itself");
    assertEquals(written, handler.takenKeys(), "every record of the old stream, nothing of the new one");
    StreamEndedException e = assertInstanceOf(StreamEndedException.class, poller.failure().orElseThrow());
    assertEquals("switched", e.consumer());
    assertEquals(old, e.streamArn());
    assertEquals(table.name(), e.table().orElseThrow());
    assertEquals(current, e.currentStreamArn().orElseThrow());
    assertTrue(e.getMessage().contains("Table '" + table.name() + "' has a new stream, " + current), e.getMessage());
    assertTrue(e.getMessage().contains("Records written while the table had no stream were never streamed"),
        e.getMessage());
    assertTrue(e.getMessage().contains("partition key 'checkpoint#switched' of table '" + checkpoints + "'"),
        e.getMessage());
    assertTrue(checkpointItem("switched", handler.calls().get(0).shardId()).get("finished").bool());
    List<ILoggingEvent> errors = logged.list.stream().filter(event -> event.getLevel() == Level.ERROR).toList();
    assertEquals(1, errors.size(), "one ERROR: " + errors);
    assertTrue(errors.get(0).getFormattedMessage().contains(old), errors.get(0).getFormattedMessage());
    for (ILoggingEvent event : logged.list) {
      assertFalse(event.getFormattedMessage().contains(SECRET), event.getFormattedMessage());
    }
  }

  @Test
  void aStreamSwitchedOffIsReadToItsEndBeforeThePollerStopsAndARestartStopsAtOnce() {
    StreamTable table = newTable();
    List<String> written = table.write(7, SECRET);
    String old = client.describeTable(b -> b.tableName(table.name())).table().latestStreamArn();
    RecordingHandler handler = new RecordingHandler();
    StreamEndedException e = null;

    try (StreamPoller poller = poller(table, "switched-off", handler).batchSize(3).build()) {
      assertEquals(3, poller.pollOnce().records());
      switchStream(table, false);
      for (int i = 0; i < 10 && e == null; i++) {
        int takenBefore = handler.taken().size();
        try {
          poller.pollOnce();
        } catch (StreamEndedException ended) {
          assertEquals(7, takenBefore, "stopped with records of the stream not delivered");
          e = ended;
        }
      }
    }

    assertEquals(written, handler.takenKeys());
    assertEquals(old, assertInstanceOf(StreamEndedException.class, e, "the poller did not stop").streamArn());
    assertTrue(e.currentStreamArn().isEmpty());
    assertTrue(e.getMessage().contains("Table '" + table.name() + "' has no stream now"), e.getMessage());
    RecordingHandler restarted = new RecordingHandler();
    try (StreamPoller again = StreamPoller.builder()
        .streamsClient(streams).dynamoDbClient(client).streamArn(old)
        .checkpointTable(checkpoints).consumer("switched-off").handler(restarted)
        .build()) {
      assertThrows(StreamEndedException.class, again::pollOnce);
    }
    assertTrue(restarted.calls().isEmpty());
  }

  @Test
  void aPollerOfTheTableTakingOverTheConsumerReadsItsSwitchedOffStreamToItsEnd() {
    StreamTable table = newTable();
    List<String> written = table.write(7, SECRET);
    String old = streamOf(table);
    RecordingHandler first = new RecordingHandler();
    try (StreamPoller poller = poller(table, "taken-over", first).batchSize(3).build()) {
      assertEquals(3, poller.pollOnce().records());
    }
    switchStream(table, false);

    RecordingHandler second = new RecordingHandler();
    StreamEndedException e = null;
    try (StreamPoller poller = poller(table, "taken-over", second).batchSize(3).build()) {
      for (int i = 0; i < 10 && e == null; i++) {
        try {
          poller.pollOnce();
        } catch (StreamEndedException ended) {
          e = ended;
        }
      }
    }

    assertEquals(written, Stream.concat(first.takenKeys().stream(), second.takenKeys().stream()).toList());
    assertEquals(old, assertInstanceOf(StreamEndedException.class, e, "the poller did not stop").streamArn());
  }

  @Test
  void aConsumerThatReadTheOldStreamToItsEndStopsWhenRestartedOnTheTablesNewStream() {
    StreamTable table = newTable();
    List<String> written = table.write(3, SECRET);
    String old = streamOf(table);
    RecordingHandler handler = new RecordingHandler();
    try (StreamPoller poller = poller(table, "restarted-after-end", handler).build()) {
      pollUntilIdle(poller);
      switchStream(table, false);
      assertThrows(StreamEndedException.class, () -> pollUntilIdle(poller));
    }
    String shardId = handler.calls().get(0).shardId();
    assertTrue(checkpointItem("restarted-after-end", shardId).get("finished").bool());
    switchStream(table, true);
    String current = streamOf(table);
    table.write(2, SECRET);

    RecordingHandler byTable = new RecordingHandler();
    RecordingHandler byArn = new RecordingHandler();
    StreamEndedException e;
    StreamEndedException givenArn;
    try (StreamPoller restarted = poller(table, "restarted-after-end", byTable).build();
        StreamPoller restartedByArn = StreamPoller.builder()
            .streamsClient(streams).dynamoDbClient(client).streamArn(current)
            .checkpointTable(checkpoints).consumer("restarted-after-end").handler(byArn)
            .build()) {
      e = assertThrows(StreamEndedException.class, restarted::pollOnce);
      givenArn = assertThrows(StreamEndedException.class, restartedByArn::pollOnce);
    }

    assertEquals(written, handler.takenKeys());
    assertTrue(byTable.calls().isEmpty(), "nothing of the new stream was delivered");
    assertTrue(byArn.calls().isEmpty(), "nothing of the new stream was delivered");
    for (StreamEndedException stop : List.of(e, givenArn)) {
      assertEquals("restarted-after-end", stop.consumer());
      assertEquals(old, stop.streamArn());
      assertEquals(current, stop.currentStreamArn().orElseThrow());
      assertEquals(table.name(), stop.table().orElseThrow());
      assertTrue(stop.getMessage().contains(old) && stop.getMessage().contains(current), stop.getMessage());
      assertTrue(stop.getMessage().contains("records written while the table had no stream were never streamed"),
          stop.getMessage());
      assertTrue(stop.getMessage().contains("docs/projections.md"), stop.getMessage());
      assertTrue(stop.getMessage().contains("partition key 'checkpoint#restarted-after-end' of table '"
          + checkpoints + "'"), stop.getMessage());
    }
    assertTrue(checkpointItem("restarted-after-end", shardId).get("finished").bool(),
        "the old stream's checkpoint is kept");
    assertEquals(old, startItem("restarted-after-end").get("stream_arn").s());
  }

  @Test
  void aConsumerThatHadNotReadTheOldStreamToItsEndStopsWhenRestartedOnTheTablesNewStream() {
    StreamTable table = newTable();
    String old = streamOf(table);
    RecordingHandler idle = new RecordingHandler();
    try (StreamPoller poller = poller(table, "restarted-idle", idle).build()) {
      pollUntilIdle(poller);
    }
    table.write(3, SECRET);
    RecordingHandler halfway = new RecordingHandler();
    try (StreamPoller poller = poller(table, "restarted-halfway", halfway).batchSize(2).build()) {
      assertEquals(2, poller.pollOnce().records());
    }
    switchStream(table, false);
    switchStream(table, true);
    String current = streamOf(table);
    table.write(2, SECRET);

    for (String consumer : List.of("restarted-idle", "restarted-halfway")) {
      RecordingHandler restarted = new RecordingHandler();
      try (StreamPoller poller = poller(table, consumer, restarted).build()) {
        StreamEndedException e = assertThrows(StreamEndedException.class, poller::pollOnce, consumer);
        assertEquals(old, e.streamArn());
        assertEquals(current, e.currentStreamArn().orElseThrow());
        assertTrue(e.getMessage().contains("any records of " + old + " the consumer had not handled are not delivered"),
            e.getMessage());
        assertTrue(e.getMessage().contains("partition key 'checkpoint#" + consumer + "'"), e.getMessage());
      }
      assertTrue(restarted.calls().isEmpty(), consumer + ": nothing of the new stream was delivered");
    }
    assertTrue(idle.calls().isEmpty());
    assertEquals(2, halfway.taken().size());
  }

  @Test
  void aConsumerWhoseStartItemNamesNoStreamReadsTheStreamItIsGivenAndRecordsIt() {
    StreamTable table = newTable();
    List<String> written = new ArrayList<>(table.write(2, SECRET));
    RecordingHandler first = new RecordingHandler();
    try (StreamPoller poller = poller(table, "unrecorded", first).build()) {
      pollUntilIdle(poller);
    }
    // A start item as a hand-made one may be: without the stream it was written for.
    client.updateItem(b -> b.tableName(checkpoints).key(startKey("unrecorded")).updateExpression("REMOVE stream_arn"));
    written.addAll(table.write(2, SECRET));

    RecordingHandler second = new RecordingHandler();
    try (StreamPoller poller = poller(table, "unrecorded", second).build()) {
      pollUntilIdle(poller);
    }

    assertEquals(written.subList(0, 2), first.takenKeys());
    assertEquals(written.subList(2, 4), second.takenKeys());
    Map<String, AttributeValue> start = startItem("unrecorded");
    assertEquals(streamOf(table), start.get("stream_arn").s());
    assertEquals("TRIM_HORIZON", start.get("start_position").s());
  }

  @Test
  void aTableWithoutStreamOrCheckpointTableIsReportedByName() {
    String plain = tables.name("no-stream");
    client.createTable(CheckpointTable.definition(plain));
    RecordingHandler handler = new RecordingHandler();
    try (StreamPoller poller = StreamPoller.builder()
        .streamsClient(streams).dynamoDbClient(client).tableName(plain)
        .checkpointTable(checkpoints).consumer("no-stream").handler(handler).build()) {
      StreamNotEnabledException e = assertThrows(StreamNotEnabledException.class, poller::pollOnce);
      assertEquals(plain, e.table());
    }

    StreamTable table = newTable();
    String missing = tables.name("no-checkpoints");
    try (StreamPoller poller = poller(table, "no-checkpoints", handler).checkpointTable(missing).build()) {
      MissingCheckpointTableException e = assertThrows(MissingCheckpointTableException.class, poller::pollOnce);
      assertEquals(missing, e.table());
      assertTrue(e.getMessage().contains("CheckpointTable.createIfMissing"), e.getMessage());
    }
  }

  @Test
  void theCheckpointTableIsCreatedOnceAndATableWithOtherKeysIsRefused() {
    assertFalse(CheckpointTable.createIfMissing(client, checkpoints));
    String other = tables.name("other-keys");
    client.createTable(b -> b.tableName(other)
        .billingMode("PAY_PER_REQUEST")
        .attributeDefinitions(AttributeDefinition.builder().attributeName("id").attributeType("S").build())
        .keySchema(KeySchemaElement.builder().attributeName("id").keyType("HASH").build()));
    client.waiter().waitUntilTableExists(b -> b.tableName(other));

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> CheckpointTable.createIfMissing(client, other));
    assertTrue(e.getMessage().contains("hash key id (S)"), e.getMessage());
  }

  @Test
  void aLeaseLetsOnePollerOfAConsumerReadAndHandsOverWhenItCloses() {
    StreamTable table = newTable();
    List<String> written = table.write(8, SECRET);
    RecordingHandler first = new RecordingHandler();
    RecordingHandler second = new RecordingHandler();
    StreamPoller holder = poller(table, "leased", first).batchSize(5).lease(Duration.ofSeconds(30)).build();
    StreamPoller waiter = poller(table, "leased", second).batchSize(5).lease(Duration.ofSeconds(30)).build();

    assertTrue(holder.pollOnce().leaseHeld());
    PollResult refused = waiter.pollOnce();
    assertFalse(refused.leaseHeld());
    assertEquals(0, refused.records());
    holder.close();
    pollUntilIdle(waiter);
    waiter.close();

    assertEquals(written.subList(0, 5), first.takenKeys());
    assertEquals(written.subList(5, 8), second.takenKeys());
  }

  @Test
  void anExpiredLeaseIsTakenOverAndItsFormerHolderStopsReading() {
    StreamTable table = newTable();
    List<String> written = table.write(6, SECRET);
    MutableClock clock = new MutableClock();
    RecordingHandler first = new RecordingHandler();
    RecordingHandler second = new RecordingHandler();
    try (StreamPoller stalled = poller(table, "expiring", first).batchSize(4).clock(clock)
            .lease(Duration.ofSeconds(10)).leaseOwner("a").build();
        StreamPoller next = poller(table, "expiring", second).batchSize(4).clock(clock)
            .lease(Duration.ofSeconds(10)).leaseOwner("b").build()) {
      stalled.pollOnce();
      clock.advance(Duration.ofSeconds(9));
      assertFalse(next.pollOnce().leaseHeld(), "not expired yet");
      clock.advance(Duration.ofSeconds(2));

      assertTrue(next.pollOnce().leaseHeld());
      assertFalse(stalled.pollOnce().leaseHeld(), "its lease was taken over");
      pollUntilIdle(next);
    }

    assertEquals(written.subList(0, 4), first.takenKeys());
    assertEquals(written.subList(4, 6), second.takenKeys());
  }

  @Test
  void aPollWhoseHandlerOutlastedTheLeaseEndsSayingTheLeaseIsLost() {
    StreamTable table = newTable();
    List<String> written = table.write(3, SECRET);
    MutableClock clock = new MutableClock();
    RecordingHandler second = new RecordingHandler();
    try (StreamPoller next = poller(table, "outlasted", second).clock(clock)
            .lease(Duration.ofSeconds(10)).leaseOwner("b").build();
        StreamPoller slow = poller(table, "outlasted", new RecordingHandler()).clock(clock)
            .lease(Duration.ofSeconds(10)).leaseOwner("a")
            .handler((shard, records) -> {
              // One handler call longer than the lease: the next poller takes it meanwhile.
              clock.advance(Duration.ofSeconds(11));
              assertTrue(next.pollOnce().leaseHeld());
            })
            .build()) {

      assertFalse(slow.pollOnce().leaseHeld(), "the lease is the other poller's now");
      assertTrue(next.pollOnce().leaseHeld());
      pollUntilIdle(next);
    }
    assertEquals(written, second.takenKeys(), "the next poller handed the batch over while the slow handler ran");
  }

  /**
   * A LATEST consumer's first poll stalls (past its lease, when it has one) after reading the (empty)
   * checkpoints; another poller starts the consumer and hands records over meanwhile. The stalled one must
   * not write "start at the end" over that poller's checkpoint, or what comes after it would be skipped
   * once that poller is gone: with a lease it finds the lease lost and writes nothing; without one it finds
   * the shard's checkpoint stored and takes the consumer's stored state up.
   */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aLatestConsumerStartedByAnotherPollerWhileThisOneStalledKeepsItsCheckpoint(boolean leased) {
    StreamTable table = newTable();
    String consumer = "stalled-start-" + leased;
    // DynamoDB Local refuses a LATEST iterator of a shard that never held a record.
    table.write(1, SECRET);
    MutableClock clock = new MutableClock();
    RecordingHandler first = new RecordingHandler();
    RecordingHandler second = new RecordingHandler();
    RecordingHandler third = new RecordingHandler();
    List<String> handedOverBySecond = new ArrayList<>();
    AtomicBoolean stalled = new AtomicBoolean();
    try (StreamPoller next = leased(poller(table, consumer, second), leased, "b").startPosition(StartPosition.LATEST)
        .clock(clock).build()) {
      ExecutionInterceptor slowListing = new ExecutionInterceptor() {
        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
          if (context.request() instanceof DescribeStreamRequest && stalled.compareAndSet(false, true)) {
            clock.advance(Duration.ofSeconds(11));
            assertTrue(next.pollOnce().leaseHeld(), "the other poller (taking the expired lease) starts");
            handedOverBySecond.addAll(table.write(2, SECRET));
            pollUntilIdle(next);
          }
        }
      };
      try (DynamoDbStreamsClient slowStreams = streamsClientWith(slowListing);
          StreamPoller stalling = leased(poller(table, consumer, first), leased, "a").streamsClient(slowStreams)
              .startPosition(StartPosition.LATEST).clock(clock).build()) {
        assertEquals(!leased, stalling.pollOnce().leaseHeld());
      }
      assertTrue(stalled.get());
      assertEquals(handedOverBySecond, second.takenKeys());
      assertEquals(List.of(), first.takenKeys(), "nothing new after the other poller's checkpoint");
      List<Record> taken = second.taken();
      Map<String, AttributeValue> checkpoint = checkpointItem(consumer, second.calls().get(0).shardId());
      assertEquals(taken.get(taken.size() - 1).dynamodb().sequenceNumber(), checkpoint.get("sequence_number").s(),
          "the stalled poller left the checkpoint as the other one wrote it");
    }
    // The other poller is gone; records arrive before a third one takes over.
    List<String> later = table.write(2, SECRET);
    clock.advance(Duration.ofSeconds(11));
    try (StreamPoller last = leased(poller(table, consumer, third), leased, "c").startPosition(StartPosition.LATEST)
        .clock(clock).build()) {
      pollUntilIdle(last);
    }
    assertEquals(later, third.takenKeys());
  }

  private static StreamPoller.Builder leased(StreamPoller.Builder poller, boolean leased, String owner) {
    return leased ? poller.lease(Duration.ofSeconds(10)).leaseOwner(owner) : poller;
  }

  @Test
  void closeEndsThePollersThreadAlsoWhenTheLeaseCannotBeGivenUp() throws InterruptedException {
    StreamTable table = newTable();
    table.write(2, SECRET);
    RecordingHandler handler = new RecordingHandler();
    AtomicBoolean unreachable = new AtomicBoolean();
    try (DynamoDbClient failingRelease = clientFailingLeaseRelease(unreachable)) {
      StreamPoller poller = poller(table, "release-fails", handler).dynamoDbClient(failingRelease)
          .lease(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).build();
      poller.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (handler.taken().size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      unreachable.set(true);

      poller.close();

      assertFalse(poller.isRunning());
      deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (pollerThreadAlive("esgen-stream-poller-release-fails") && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertFalse(pollerThreadAlive("esgen-stream-poller-release-fails"),
          "a non-daemon poller thread left running keeps the JVM from exiting");
    }
    assertEquals(2, handler.taken().size());
  }

  /**
   * A lease write DynamoDB refuses otherwise than with a failed condition (throttles, injected: DynamoDB
   * Local never throttles) fails the poll as before, and is logged as what it is: the write of which
   * consumer's lease to which table, with the exception's type (and DynamoDB's error code, when the SDK has
   * no class of its own for it) and message.
   */
  @Test
  void aFailedLeaseWriteIsLoggedAsSuchAndThePollIsTriedAgain() {
    StreamTable table = newTable();
    List<String> written = table.write(2, SECRET);
    RecordingHandler handler = new RecordingHandler();
    Logger logger = (Logger) LoggerFactory.getLogger("dev.esgen");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.setLevel(Level.DEBUG);
    logger.addAppender(logged);
    try (DynamoDbClient throttling = clientThrottlingLeaseWrites();
        StreamPoller poller = poller(table, "lease-throttled", handler).dynamoDbClient(throttling)
            .lease(Duration.ofSeconds(30)).leaseOwner("host-a").build()) {
      assertThrows(ProvisionedThroughputExceededException.class, poller::pollOnce);
      assertEquals("ThrottlingException",
          assertThrows(DynamoDbException.class, poller::pollOnce).awsErrorDetails().errorCode());
      assertFalse(leaseItem("lease-throttled").hasItem(), "no lease stored while its writes are throttled");
      assertEquals(List.of(), handler.takenKeys());

      pollUntilIdle(poller);
      assertEquals("host-a", leaseItem("lease-throttled").item().get("owner").s());
    } finally {
      logger.detachAppender(logged);
      logger.setLevel(null);
    }

    assertEquals(written, handler.takenKeys());
    List<String> warnings = logged.list.stream().filter(e -> e.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage).toList();
    assertEquals(2, warnings.size(), warnings.toString());
    String write = "consumer lease-throttled: the write of its lease (owner host-a) to checkpoint table " + checkpoints
        + " failed: software.amazon.awssdk.services.dynamodb.model.";
    assertTrue(warnings.get(0).startsWith(write + "ProvisionedThroughputExceededException: The level of configured"
        + " provisioned throughput for the table was exceeded (simulated)"), warnings.get(0));
    assertTrue(warnings.get(1).startsWith(write + "DynamoDbException (ThrottlingException): Rate of requests exceeds"
        + " the allowed throughput (simulated)"), warnings.get(1));
    for (ILoggingEvent event : logged.list) {
      assertFalse(event.getFormattedMessage().contains(SECRET), event.getFormattedMessage());
    }
  }

  private static GetItemResponse leaseItem(String consumer) {
    return client.getItem(b -> b.tableName(checkpoints).consistentRead(true).key(Map.of(
        "pkey", AttributeValue.fromS("checkpoint#" + consumer), "skey", AttributeValue.fromS("lease"))));
  }

  static boolean pollerThreadAlive(String name) {
    return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
  }

  @Test
  void aFinishedCheckpointIsNeverWrittenBackToUnfinished() {
    CheckpointStore store = new CheckpointStore(client, checkpoints, "finished-stays", new MutableClock());
    Checkpoint checkpoint = Checkpoint.unread("shardId-x", ShardIteratorType.TRIM_HORIZON);

    assertTrue(store.save(checkpoint.after("100", true), "arn"));
    assertFalse(store.save(checkpoint.after("50", false), "arn"));

    Checkpoint stored = store.load().checkpoints().get("shardId-x");
    assertTrue(stored.finished());
    assertEquals("100", stored.sequenceNumber());
    assertNull(store.load().started().orElse(null));
  }

  @Test
  void progressAndFailuresAreLoggedWithoutRecordContents() {
    StreamTable table = newTable();
    table.write(3, SECRET);
    RecordingHandler handler = new RecordingHandler(1, "could not project " + SECRET);
    Logger logger = (Logger) LoggerFactory.getLogger("dev.esgen");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.setLevel(Level.DEBUG);
    logger.addAppender(logged);
    try (StreamPoller poller = poller(table, "logged", handler).build()) {
      pollUntilIdle(poller);
    } finally {
      logger.detachAppender(logged);
      logger.setLevel(null);
    }

    List<ILoggingEvent> events = logged.list;
    assertTrue(events.stream().anyMatch(e -> e.getLevel() == Level.INFO
        && e.getFormattedMessage().startsWith("consumer logged starts reading stream ")), "start at INFO");
    assertTrue(events.stream().anyMatch(e -> e.getLevel() == Level.WARN
        && e.getFormattedMessage().contains("the handler failed on 3 record(s) of shard")), "failure at WARN");
    assertTrue(events.stream().anyMatch(e -> e.getLevel() == Level.DEBUG
        && e.getFormattedMessage().startsWith("consumer logged: handled 3 record(s) of shard")), "batch at DEBUG");
    for (ILoggingEvent event : events) {
      assertFalse(event.getFormattedMessage().contains(SECRET), event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        assertFalse(String.valueOf(t.getMessage()).contains(SECRET), t.getMessage());
      }
    }
  }

  private static String streamOf(StreamTable table) {
    return client.describeTable(b -> b.tableName(table.name())).table().latestStreamArn();
  }

  private static Map<String, AttributeValue> startKey(String consumer) {
    return Map.of("pkey", AttributeValue.fromS("checkpoint#" + consumer), "skey", AttributeValue.fromS("start"));
  }

  private static Map<String, AttributeValue> startItem(String consumer) {
    return client.getItem(b -> b.tableName(checkpoints).consistentRead(true).key(startKey(consumer))).item();
  }

  /** Switches the table's stream off, or on again (a new stream, with a new ARN). */
  private static void switchStream(StreamTable table, boolean enabled) {
    StreamSpecification specification = enabled
        ? StreamSpecification.builder().streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE).build()
        : StreamSpecification.builder().streamEnabled(false).build();
    client.updateTable(b -> b.tableName(table.name()).streamSpecification(specification));
  }

  /** A streams client of DynamoDB Local that, while {@code gone}, answers every request as for a stream that does not exist. */
  private static DynamoDbStreamsClient streamsClientNotFindingAnyStreamWhile(AtomicBoolean gone, List<String> failed) {
    ExecutionInterceptor notFound = new ExecutionInterceptor() {
      @Override
      public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        if (gone.get()) {
          failed.add(context.request().getClass().getSimpleName());
          throw ResourceNotFoundException.builder()
              .statusCode(400)
              .message("Requested resource not found: Stream not found")
              .awsErrorDetails(AwsErrorDetails.builder().errorCode("ResourceNotFoundException")
                  .errorMessage("Requested resource not found: Stream not found").build())
              .build();
        }
      }
    };
    return streamsClientWith(notFound);
  }

  /** A streams client of DynamoDB Local whose requests go through {@code interceptor}. */
  private static DynamoDbStreamsClient streamsClientWith(ExecutionInterceptor interceptor) {
    return DynamoDbStreamsClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .overrideConfiguration(c -> c.addExecutionInterceptor(interceptor))
        .build();
  }

  /** A client of DynamoDB Local whose DeleteItem of a lease fails, as when DynamoDB cannot be reached, while {@code unreachable}. */
  private static DynamoDbClient clientFailingLeaseRelease(AtomicBoolean unreachable) {
    ExecutionInterceptor failLeaseDeletes = new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (unreachable.get() && context.request() instanceof DeleteItemRequest delete
            && delete.key().get("skey").s().equals("lease")) {
          throw SdkClientException.create("Unable to execute HTTP request: connect timed out (simulated)");
        }
      }
    };
    return DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .overrideConfiguration(c -> c.addExecutionInterceptor(failLeaseDeletes))
        .build();
  }

  /**
   * A client of DynamoDB Local whose PutItem of a lease is throttled the first two times: with the SDK's
   * class for a table over its provisioned throughput, then with a plain DynamoDbException of DynamoDB's
   * {@code ThrottlingException} code.
   */
  private static DynamoDbClient clientThrottlingLeaseWrites() {
    AtomicInteger leaseWrites = new AtomicInteger();
    ExecutionInterceptor throttleLeasePuts = new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (!(context.request() instanceof PutItemRequest put && put.item().get("skey").s().equals("lease"))) {
          return;
        }
        int write = leaseWrites.incrementAndGet();
        if (write == 1) {
          String message = "The level of configured provisioned throughput for the table was exceeded (simulated)";
          throw ProvisionedThroughputExceededException.builder().statusCode(400).message(message)
              .awsErrorDetails(AwsErrorDetails.builder()
                  .errorCode("ProvisionedThroughputExceededException").errorMessage(message).build())
              .build();
        }
        if (write == 2) {
          String message = "Rate of requests exceeds the allowed throughput (simulated)";
          throw DynamoDbException.builder().statusCode(400).message(message)
              .awsErrorDetails(
                  AwsErrorDetails.builder().errorCode("ThrottlingException").errorMessage(message).build())
              .build();
        }
      }
    };
    return DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .overrideConfiguration(c -> c.addExecutionInterceptor(throttleLeasePuts))
        .build();
  }

  private static DynamoDbClient clientFailingCheckpointWrites(AtomicInteger attempts) {
    ExecutionInterceptor failCheckpointPuts = new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof PutItemRequest put && put.tableName().equals(checkpoints)
            && put.item().get("skey").s().startsWith("shard#")) {
          attempts.incrementAndGet();
          throw SdkClientException.create("connection reset (simulated crash)");
        }
      }
    };
    return DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .overrideConfiguration(c -> c.addExecutionInterceptor(failCheckpointPuts))
        .build();
  }
}
