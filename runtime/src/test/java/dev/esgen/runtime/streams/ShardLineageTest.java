package dev.esgen.runtime.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.esgen.runtime.faults.Fault;
import dev.esgen.runtime.faults.FaultInjector;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import dev.esgen.runtime.internal.streams.Checkpoint;
import dev.esgen.runtime.internal.streams.CheckpointStore;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.TablePrefix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;

/**
 * Shard splits, roll-overs and lineage, on a {@link SimulatedStream} laid out like DynamoDB's (its Local
 * has one shard), with the checkpoints in DynamoDB Local.
 */
@ExtendWith(DynamoDbLocalExtension.class)
class ShardLineageTest {

  private static DynamoDbClient client;
  private static String checkpoints;
  private static int consumers;

  @BeforeAll
  static void setUp(DynamoDbClient dynamo, TablePrefix tables) {
    client = dynamo;
    checkpoints = tables.name("checkpoints");
    CheckpointTable.createIfMissing(client, checkpoints);
  }

  /**
   * Two roots. A splits: its keys k1 and k2 go on in children A1 and A2, and A2 rolls over into A2a.
   * B rolls over into B1, which goes on with k3. The listing names children before their parents, so
   * that only lineage can put parents first.
   */
  private static SimulatedStream splitAndRollOver() {
    SimulatedStream stream = new SimulatedStream()
        .shard("A2a", "A2").shard("A1", "A").shard("B1", "B").shard("A2", "A").shard("B", null).shard("A", null);
    stream.put("A", "k1", "k2", "k1", "k2", "k1").close("A");
    stream.put("B", "k3", "k3", "k3");
    stream.put("A1", "k1", "k1", "k1");
    stream.put("A2", "k2", "k2").close("A2");
    stream.put("B", "k3").close("B");
    stream.put("A2a", "k2", "k2", "k2");
    stream.put("B1", "k3", "k3");
    return stream;
  }

  private static String consumer() {
    return "lineage-" + ++consumers;
  }

  private static StreamPoller poller(SimulatedStream stream, String consumer, RecordingHandler handler) {
    return StreamPoller.builder()
        .streamsClient(stream)
        .dynamoDbClient(client)
        .streamArn(SimulatedStream.ARN)
        .checkpointTable(checkpoints)
        .consumer(consumer)
        .handler(handler)
        .batchSize(2)
        .retryBackoff(Duration.ZERO, Duration.ZERO)
        .build();
  }

  /** Each key's records, by sequence number, in the order they were taken. */
  private static Map<String, List<String>> byKey(List<Record> records) {
    Map<String, List<String>> byKey = new LinkedHashMap<>();
    for (Record record : records) {
      byKey.computeIfAbsent(record.dynamodb().keys().get("pkey").s(), k -> new ArrayList<>())
          .add(record.dynamodb().sequenceNumber());
    }
    return byKey;
  }

  private static void assertEachKeyInWriteOrder(List<Record> taken) {
    byKey(taken).forEach((key, sequenceNumbers) ->
        assertEquals(sequenceNumbers.stream().sorted().toList(), sequenceNumbers, key + " out of order"));
  }

  /** The index in {@code handler}'s calls of the first (or last) call for {@code shardId}. */
  private static int call(RecordingHandler handler, String shardId, boolean first) {
    List<RecordingHandler.Call> calls = handler.calls();
    int found = -1;
    for (int i = 0; i < calls.size(); i++) {
      if (calls.get(i).shardId().equals(shardId)) {
        found = i;
        if (first) {
          return i;
        }
      }
    }
    return found;
  }

  @Test
  void aLatestShardWhoseIteratorExpiresBeforeAnyRecordWasHandledSaysItMaySkipRecords() {
    SimulatedStream stream = new SimulatedStream().shard("A", null);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    Logger reader = (Logger) LoggerFactory.getLogger(StreamPoller.class);
    logged.start();
    reader.addAppender(logged);
    reader.setLevel(Level.WARN);
    try (StreamPoller poller = StreamPoller.builder().streamsClient(stream).dynamoDbClient(client)
        .streamArn(SimulatedStream.ARN).checkpointTable(checkpoints).consumer(consumer())
        .handler(new RecordingHandler()).startPosition(StartPosition.LATEST)
        .retryBackoff(Duration.ZERO, Duration.ZERO).build()) {
      poller.pollOnce();
      stream.expireIterators();
      poller.pollOnce();
    } finally {
      reader.detachAppender(logged);
      reader.setLevel(null);
    }

    assertEquals(List.of(Level.WARN), logged.list.stream().map(ILoggingEvent::getLevel).toList());
    assertTrue(logged.list.get(0).getFormattedMessage().startsWith("shard A: its iterator expired before any"),
        logged.list.get(0).getFormattedMessage());
  }

  @Test
  void anErrorFromTheHandlerStopsAStartedPollerAndSaysWhyWithoutMovingTheCheckpoint() throws InterruptedException {
    SimulatedStream stream = new SimulatedStream().shard("A", null);
    stream.put("A", "k1");
    AtomicInteger calls = new AtomicInteger();
    StreamPoller poller = StreamPoller.builder().streamsClient(stream).dynamoDbClient(client)
        .streamArn(SimulatedStream.ARN).checkpointTable(checkpoints).consumer(consumer())
        .handler((shard, records) -> {
          calls.incrementAndGet();
          throw new StackOverflowError();
        })
        .pollInterval(Duration.ofMillis(10)).retryBackoff(Duration.ZERO, Duration.ZERO).build();

    poller.start();
    assertTrue(PollerWaits.stopsWithin(poller, Duration.ofSeconds(30)), "the poller stopped by itself");
    poller.close();

    assertEquals(1, calls.get(), "and did not call the handler again");
    assertInstanceOf(StackOverflowError.class, poller.failure().orElseThrow().getCause());
    RecordingHandler after = new RecordingHandler();
    try (StreamPoller again = StreamPoller.builder().streamsClient(stream).dynamoDbClient(client)
        .streamArn(SimulatedStream.ARN).checkpointTable(checkpoints).consumer(poller.consumer())
        .handler(after).retryBackoff(Duration.ZERO, Duration.ZERO).build()) {
      StreamPollerTest.pollUntilIdle(again);
    }
    assertEquals(1, after.taken().size(), "the record is handed over again: no checkpoint moved past it");
  }

  private static StreamPoller leased(SimulatedStream stream, String consumer, String owner, MutableClock clock,
      StreamRecordsHandler handler) {
    return StreamPoller.builder().streamsClient(stream).dynamoDbClient(client)
        .streamArn(SimulatedStream.ARN).checkpointTable(checkpoints).consumer(consumer)
        .handler(handler).batchSize(2).clock(clock).lease(Duration.ofSeconds(10)).leaseOwner(owner)
        .retryBackoff(Duration.ZERO, Duration.ZERO).build();
  }

  @Test
  void aHolderWhosePollOverManyShardsOutlastsHalfItsLeaseRenewsItOnTheWayAndKeepsIt() {
    SimulatedStream stream = new SimulatedStream().shard("A", null).shard("B", null).shard("C", null);
    stream.put("A", "k1").put("B", "k2").put("C", "k3");
    MutableClock clock = new MutableClock();
    String consumer = consumer();
    RecordingHandler recorded = new RecordingHandler();
    try (StreamPoller holder = leased(stream, consumer, "a", clock, (shardId, records) -> {
          recorded.handle(shardId, records);
          clock.advance(Duration.ofSeconds(4));      // each shard's batch takes 4 s of a 10 s lease
        });
        StreamPoller other = leased(stream, consumer, "b", clock, new RecordingHandler())) {
      PollResult poll = holder.pollOnce();

      assertEquals(3, poll.records());
      assertTrue(poll.leaseHeld());
      assertFalse(other.pollOnce().leaseHeld(), "the holder renewed its lease while it read, 12 s into a 10 s lease");
    }
  }

  @Test
  void aHolderWhoseLeaseWasTakenOverWhileItHandledOneShardReadsNoOtherShard() {
    SimulatedStream stream = new SimulatedStream().shard("A", null).shard("B", null);
    stream.put("A", "k1").put("B", "k2");
    MutableClock clock = new MutableClock();
    String consumer = consumer();
    RecordingHandler stalledRecorded = new RecordingHandler();
    RecordingHandler nextRecorded = new RecordingHandler();
    try (StreamPoller next = leased(stream, consumer, "b", clock, nextRecorded);
        StreamPoller stalled = leased(stream, consumer, "a", clock, (shardId, records) -> {
          stalledRecorded.handle(shardId, records);
          if (shardId.equals("A")) {
            // The holder stalls past its lease on shard A; meanwhile the next poller takes the lease and reads.
            clock.advance(Duration.ofSeconds(11));
            assertTrue(next.pollOnce().leaseHeld());
          }
        })) {
      PollResult poll = stalled.pollOnce();

      assertFalse(poll.leaseHeld(), "the lease was lost during the poll");
      assertEquals(List.of("A"), stalledRecorded.calls().stream().map(RecordingHandler.Call::shardId).toList(),
          "once its lease is taken over, the former holder hands nothing more over");
      assertEquals(List.of("A", "B"), nextRecorded.calls().stream().map(RecordingHandler.Call::shardId).toList());
    }
  }

  @Test
  void closeWaitsForTheBatchInHandAndHandsNoOtherShardsBatchOver() throws Exception {
    SimulatedStream stream = new SimulatedStream().shard("A", null).shard("B", null).shard("C", null);
    stream.put("A", "k1").put("B", "k2").put("C", "k3");
    String consumer = consumer();
    RecordingHandler recorded = new RecordingHandler();
    AtomicReference<StreamPoller> started = new AtomicReference<>();
    CompletableFuture<Void> closing = new CompletableFuture<>();
    StreamPoller poller = StreamPoller.builder().streamsClient(stream).dynamoDbClient(client)
        .streamArn(SimulatedStream.ARN).checkpointTable(checkpoints).consumer(consumer)
        .handler((shardId, records) -> {
          recorded.handle(shardId, records);
          if (shardId.equals("A")) {
            // close() is called while shard A's batch is in hand; the batch is finished before the poll ends.
            closing.completeAsync(() -> {
              started.get().close();
              return null;
            });
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (started.get().isRunning() && System.nanoTime() < deadline) {
              Thread.onSpinWait();
            }
          }
        })
        .retryBackoff(Duration.ZERO, Duration.ZERO).build();
    started.set(poller);

    poller.start();
    closing.get(30, TimeUnit.SECONDS);

    assertEquals(List.of("A"), recorded.calls().stream().map(RecordingHandler.Call::shardId).toList());
    Checkpoint a = storedCheckpoints(consumer).get("A");
    assertEquals(stream.sequenceNumberOf("A", 0), a.sequenceNumber(), "the batch in hand was checkpointed");
  }

  @Test
  void closeFromTheHandlerStopsAfterTheBatchInHandAndGivesTheLeaseUpOnlyThen() throws Exception {
    SimulatedStream stream = new SimulatedStream().shard("A", null).shard("B", null);
    stream.put("A", "k1").put("B", "k2");
    String consumer = consumer();
    RecordingHandler recorded = new RecordingHandler();
    CompletableFuture<Boolean> leaseHeldAfterClose = new CompletableFuture<>();
    StreamPoller poller = closingInItsHandler(stream, consumer, recorded, leaseHeldAfterClose::complete);
    String thread = "esgen-stream-poller-" + consumer;
    Logger logger = (Logger) LoggerFactory.getLogger(StreamPoller.class);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    try {
      poller.start();
      assertTrue(leaseHeldAfterClose.get(30, TimeUnit.SECONDS),
          "the lease was given up while the handler still had the batch in hand");
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while ((StreamPollerTest.pollerThreadAlive(thread) || leaseStored(consumer)) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    } finally {
      logger.detachAppender(logged);
    }

    assertFalse(StreamPollerTest.pollerThreadAlive(thread), "the poller's own thread did not end");
    assertFalse(leaseStored(consumer), "the lease was not given up after the poll");
    assertEquals(1, recorded.calls().size(), "a batch was handed over after close()");
    String shard = recorded.calls().get(0).shardId();
    Checkpoint checkpoint = storedCheckpoints(consumer).get(shard);
    assertEquals(stream.sequenceNumberOf(shard, 0), checkpoint.sequenceNumber(), "the batch in hand was checkpointed");
    assertTrue(logged.list.stream().noneMatch(e -> e.getLevel() == Level.WARN),
        "close() from the handler waited for its own thread: " + logged.list);
  }

  @Test
  void closeFromTheHandlerOfPollOnceGivesTheLeaseUpWhenThePollReturns() {
    SimulatedStream stream = new SimulatedStream().shard("A", null).shard("B", null);
    stream.put("A", "k1").put("B", "k2");
    String consumer = consumer();
    RecordingHandler recorded = new RecordingHandler();
    List<Boolean> leaseHeldAfterClose = new ArrayList<>();
    StreamPoller poller = closingInItsHandler(stream, consumer, recorded, leaseHeldAfterClose::add);

    poller.pollOnce();

    assertEquals(List.of(true), leaseHeldAfterClose, "the lease was given up while the batch was in hand");
    assertFalse(leaseStored(consumer), "the lease was not given up when the poll returned");
    assertEquals(1, recorded.calls().size(), "a batch was handed over after close()");
    assertThrows(IllegalStateException.class, poller::pollOnce);
  }

  @Test
  void aFinishingCheckpointWhoseResponseWasLostIsNotTakenForAnotherPollersWork() {
    SimulatedStream stream = new SimulatedStream().shard("A", null);
    stream.put("A", "k1").close("A");
    String consumer = consumer();
    // DynamoDB stores the checkpoint that finishes shard A, its answer is lost, and the SDK sends it again.
    FaultInjector faults = FaultInjector.builder(1)
        .targets(request -> request instanceof PutItemRequest put && put.item().containsKey("finished")
            && put.item().get("finished").bool())
        .build();
    faults.enqueue(PutItemRequest.class, Fault.LOST_RESPONSE);
    Logger logger = (Logger) LoggerFactory.getLogger("dev.esgen");
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    logged.start();
    logger.setLevel(Level.INFO);
    logger.addAppender(logged);
    Checkpoint a;
    // TestDynamo's DynamoDB Local, which may not be this class's.
    try (DynamoDbClient lossy = TestDynamo.clientWith(faults)) {
      CheckpointTable.createIfMissing(lossy, checkpoints);
      try (StreamPoller poller = StreamPoller.builder().streamsClient(stream).dynamoDbClient(lossy)
          .streamArn(SimulatedStream.ARN).checkpointTable(checkpoints).consumer(consumer)
          .handler(new RecordingHandler()).retryBackoff(Duration.ZERO, Duration.ZERO).build()) {
        StreamPollerTest.pollUntilIdle(poller);
      } finally {
        logger.detachAppender(logged);
        logger.setLevel(null);
      }
      a = new CheckpointStore(lossy, checkpoints, consumer, new MutableClock()).load().checkpoints().get("A");
    }

    assertEquals(1L, faults.injected().get(Fault.LOST_RESPONSE));
    assertTrue(a.finished());
    assertEquals(stream.sequenceNumberOf("A", 0), a.sequenceNumber());
    List<String> messages = logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertTrue(messages.stream().noneMatch(m -> m.contains("another poller")), messages::toString);
    assertTrue(messages.stream().anyMatch(m -> m.contains("shard A is finished")), messages::toString);
  }

  /**
   * A poller of {@code consumer} with a lease, whose handler records each batch in {@code recorded}, closes
   * the poller and tells {@code leaseHeldAfterClose} whether the lease is stored still.
   */
  private static StreamPoller closingInItsHandler(SimulatedStream stream, String consumer, RecordingHandler recorded,
      Consumer<Boolean> leaseHeldAfterClose) {
    AtomicReference<StreamPoller> self = new AtomicReference<>();
    StreamPoller poller = StreamPoller.builder().streamsClient(stream).dynamoDbClient(client)
        .streamArn(SimulatedStream.ARN).checkpointTable(checkpoints).consumer(consumer)
        .lease(Duration.ofSeconds(30))
        .handler((shardId, records) -> {
          recorded.handle(shardId, records);
          self.get().close();
          leaseHeldAfterClose.accept(leaseStored(consumer));
        })
        .retryBackoff(Duration.ZERO, Duration.ZERO).build();
    self.set(poller);
    return poller;
  }

  /** The checkpoints {@code consumer} has stored, by shard id. */
  private static Map<String, Checkpoint> storedCheckpoints(String consumer) {
    return new CheckpointStore(client, checkpoints, consumer, new MutableClock()).load().checkpoints();
  }

  private static boolean leaseStored(String consumer) {
    return client.getItem(b -> b.tableName(checkpoints).consistentRead(true).key(Map.of(
        CheckpointStore.PKEY, AttributeValue.fromS(CheckpointStore.partitionKey(consumer)),
        CheckpointStore.SKEY, AttributeValue.fromS(CheckpointStore.LEASE_KEY)))).hasItem();
  }

  @Test
  void parentsAreHandledBeforeTheirChildrenAndEveryShardInOrder() {
    SimulatedStream stream = splitAndRollOver();
    RecordingHandler handler = new RecordingHandler();
    String consumer = consumer();

    try (StreamPoller poller = poller(stream, consumer, handler)) {
      StreamPollerTest.pollUntilIdle(poller);
    }

    Map<String, String> parents = Map.of("A1", "A", "A2", "A", "A2a", "A2", "B1", "B");
    parents.forEach((child, parent) -> assertTrue(call(handler, child, true) > call(handler, parent, false),
        child + " was read before its parent " + parent + " was finished"));
    Map<String, List<String>> byShard = new HashMap<>();
    handler.calls().forEach(c -> byShard.computeIfAbsent(c.shardId(), s -> new ArrayList<>())
        .addAll(c.records().stream().map(r -> r.dynamodb().sequenceNumber()).toList()));
    assertEquals(Map.of("A", 5, "A1", 3, "A2", 2, "A2a", 3, "B", 4, "B1", 2),
        Map.of("A", byShard.get("A").size(), "A1", byShard.get("A1").size(), "A2", byShard.get("A2").size(),
            "A2a", byShard.get("A2a").size(), "B", byShard.get("B").size(), "B1", byShard.get("B1").size()));
    byShard.forEach((shard, sequenceNumbers) ->
        assertEquals(sequenceNumbers.stream().sorted().toList(), sequenceNumbers, shard + " out of order"));
    assertEachKeyInWriteOrder(handler.taken());
    Map<String, Integer> perKey = new HashMap<>();
    byKey(handler.taken()).forEach((key, sequenceNumbers) -> perKey.put(key, sequenceNumbers.size()));
    assertEquals(Map.of("k1", 6, "k2", 7, "k3", 6), perKey);
  }

  @Test
  void everyShardHasItsOwnCheckpointAndClosedOnesAreFinished() {
    SimulatedStream stream = splitAndRollOver();
    String consumer = consumer();

    try (StreamPoller poller = poller(stream, consumer, new RecordingHandler())) {
      StreamPollerTest.pollUntilIdle(poller);
    }

    Map<String, Checkpoint> stored = storedCheckpoints(consumer);
    assertEquals(new Checkpoint("A", stream.sequenceNumberOf("A", 4), ShardIteratorType.TRIM_HORIZON, true),
        stored.get("A"));
    assertEquals(new Checkpoint("B", stream.sequenceNumberOf("B", 3), ShardIteratorType.TRIM_HORIZON, true),
        stored.get("B"));
    assertEquals(new Checkpoint("A2", stream.sequenceNumberOf("A2", 1), ShardIteratorType.TRIM_HORIZON, true),
        stored.get("A2"));
    assertEquals(new Checkpoint("A1", stream.sequenceNumberOf("A1", 2), ShardIteratorType.TRIM_HORIZON, false),
        stored.get("A1"));
    assertEquals(new Checkpoint("A2a", stream.sequenceNumberOf("A2a", 2), ShardIteratorType.TRIM_HORIZON, false),
        stored.get("A2a"));
    assertEquals(new Checkpoint("B1", stream.sequenceNumberOf("B1", 1), ShardIteratorType.TRIM_HORIZON, false),
        stored.get("B1"));
  }

  @Test
  void aPollerRestartedInTheMiddleOfTheLineageGoesOnWithoutLossOrRepeat() {
    SimulatedStream stream = splitAndRollOver();
    String consumer = consumer();
    RecordingHandler before = new RecordingHandler();
    // Crashes (is dropped without close) once A is finished and A2 is being read, B1 not yet started.
    StreamPoller crashed = poller(stream, consumer, before);
    for (int i = 0; i < 4; i++) {
      crashed.pollOnce();
    }
    assertTrue(call(before, "A2", true) >= 0, "A2 was started before the crash");
    assertEquals(-1, call(before, "A2a", true), "A2a was not started before the crash");

    RecordingHandler after = new RecordingHandler();
    try (StreamPoller restarted = poller(stream, consumer, after)) {
      StreamPollerTest.pollUntilIdle(restarted);
    }

    List<Record> all = new ArrayList<>(before.taken());
    all.addAll(after.taken());
    assertEquals(19, all.size());
    assertEquals(19, all.stream().map(r -> r.dynamodb().sequenceNumber()).distinct().count(), "nothing twice");
    assertEquals(-1, call(after, "A", true), "the finished parent is not read again");
    assertEachKeyInWriteOrder(all);
  }

  @Test
  void aShardThatClosesLaterIsFinishedAndItsNewChildrenAreReadAfterIt() {
    SimulatedStream stream = new SimulatedStream().shard("C", null);
    stream.put("C", "k1", "k2");
    String consumer = consumer();
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = poller(stream, consumer, handler)) {
      StreamPollerTest.pollUntilIdle(poller);
      stream.put("C", "k1", "k2", "k1").close("C");
      stream.shard("C1", "C").shard("C2", "C");
      stream.put("C1", "k1").put("C2", "k2");
      PollResult finishing = null;
      for (int i = 0; i < 3 && (finishing == null || finishing.finishedShards().isEmpty()); i++) {
        finishing = poller.pollOnce();
      }
      assertEquals(List.of("C"), finishing.finishedShards());
      StreamPollerTest.pollUntilIdle(poller);
    }

    assertEquals(List.of("C", "C", "C", "C1", "C2"), handler.calls().stream().map(RecordingHandler.Call::shardId).toList());
    assertEachKeyInWriteOrder(handler.taken());
    assertEquals(7, handler.taken().size());
  }

  @Test
  void anExpiredIteratorIsTakenAgainAfterTheCheckpointWithNothingLostOrRepeated() {
    SimulatedStream stream = new SimulatedStream().shard("S", null);
    stream.put("S", "k", "k", "k", "k", "k");
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = poller(stream, consumer(), handler)) {
      poller.pollOnce();
      stream.expireIterators();
      StreamPollerTest.pollUntilIdle(poller);
    }

    assertEquals(5, handler.taken().size());
    assertEachKeyInWriteOrder(handler.taken());
    GetShardIteratorRequest again = stream.iteratorRequests().get(1);
    assertEquals(ShardIteratorType.AFTER_SEQUENCE_NUMBER, again.shardIteratorType());
    assertEquals(stream.sequenceNumberOf("S", 1), again.sequenceNumber());
  }

  @Test
  void recordsTrimmedBeforeTheyWereHandledStopThePollerWithTheRemedy() {
    SimulatedStream stream = new SimulatedStream().shard("S", null);
    stream.put("S", "k", "k", "k", "k", "k", "k");
    String consumer = consumer();
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = poller(stream, consumer, handler)) {
      poller.pollOnce();
      stream.trim("S", 4);
      stream.expireIterators();

      StreamDataTrimmedException e = assertThrows(StreamDataTrimmedException.class, poller::pollOnce);
      assertEquals("S", e.shardId());
      assertEquals(stream.sequenceNumberOf("S", 1), e.sequenceNumber().orElseThrow());
      assertEquals(consumer, e.consumer());
      assertTrue(e.getMessage().contains("Replay the consumer's projections from the tables (docs/projections.md)"),
          e.getMessage());
    }
    assertEquals(2, handler.taken().size(), "nothing after the gap was delivered");
  }

  @Test
  void anUnfinishedShardTheStreamNoLongerListsIsReportedAsTrimmed() {
    SimulatedStream stream = new SimulatedStream().shard("S", null);
    stream.put("S", "k", "k", "k");
    String consumer = consumer();

    try (StreamPoller poller = poller(stream, consumer, new RecordingHandler())) {
      poller.pollOnce();
    }
    stream.put("S", "k").close("S").shard("S1", "S").put("S1", "k").unlist("S");

    try (StreamPoller restarted = poller(stream, consumer, new RecordingHandler())) {
      StreamDataTrimmedException e = assertThrows(StreamDataTrimmedException.class, restarted::pollOnce);
      assertEquals("S", e.shardId());
    }
  }

  @Test
  void aShardDroppedWhileItIsReadIsReportedAsTrimmed() {
    SimulatedStream stream = new SimulatedStream().shard("S", null);
    stream.put("S", "k", "k", "k", "k");
    String consumer = consumer();
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = poller(stream, consumer, handler)) {
      poller.pollOnce();
      // DynamoDB drops a shard once all its records are older than 24 hours; the poller's listing still has
      // it, and GetShardIterator answers ResourceNotFound ("Shard does not exist").
      stream.unlist("S");
      stream.expireIterators();

      StreamDataTrimmedException e = assertThrows(StreamDataTrimmedException.class, poller::pollOnce);
      assertEquals("S", e.shardId());
      assertEquals(stream.sequenceNumberOf("S", 1), e.sequenceNumber().orElseThrow());
      assertInstanceOf(ResourceNotFoundException.class, e.getCause());
    }
    assertEquals(2, handler.taken().size(), "nothing after the gap was delivered");
  }

  @Test
  void aShardTheStreamListsButDoesNotFindIsTriedAgainWithNothingLost() {
    SimulatedStream stream = new SimulatedStream().shard("S", null);
    stream.put("S", "k", "k", "k").notFound("S", 2);
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = poller(stream, consumer(), handler)) {
      assertEquals(List.of("S"), poller.pollOnce().failingShards());
      assertEquals(List.of("S"), poller.pollOnce().failingShards());
      StreamPollerTest.pollUntilIdle(poller);
    }
    assertEquals(3, handler.taken().size());
    assertEachKeyInWriteOrder(handler.taken());
  }

  @Test
  void childrenOfParentsNoLongerListedAreReadAndFinishedCheckpointsOfThemForgotten() {
    SimulatedStream stream = new SimulatedStream().shard("P", null);
    stream.put("P", "k", "k").close("P").shard("Q", "P").put("Q", "k");
    String consumer = consumer();
    try (StreamPoller poller = poller(stream, consumer, new RecordingHandler())) {
      StreamPollerTest.pollUntilIdle(poller);
    }
    stream.unlist("P").shard("orphan", "gone-long-ago").put("orphan", "j");
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = poller(stream, consumer, handler)) {
      StreamPollerTest.pollUntilIdle(poller);
    }

    assertEquals(List.of("orphan"), handler.calls().stream().map(RecordingHandler.Call::shardId).toList());
    Map<String, Checkpoint> stored = storedCheckpoints(consumer);
    assertNull(stored.get("P"), "the finished, unlisted parent's checkpoint is deleted");
    assertFalse(stored.get("Q").finished());
  }

  @Test
  void aDisabledStreamStopsThePollerOnlyOnceEveryShardOfItsLineageIsFinished() {
    SimulatedStream stream = splitAndRollOver().close("A1").close("A2a").close("B1").status(StreamStatus.DISABLED);
    String consumer = consumer();
    RecordingHandler handler = new RecordingHandler(2, "projection is down");
    StreamEndedException e = null;

    try (StreamPoller poller = poller(stream, consumer, handler)) {
      for (int i = 0; i < 50 && e == null; i++) {
        int takenBefore = handler.taken().size();
        try {
          poller.pollOnce();
        } catch (StreamEndedException ended) {
          assertEquals(19, takenBefore, "stopped with records of the stream not delivered");
          e = ended;
        }
      }
    }

    assertInstanceOf(StreamEndedException.class, e, "the poller did not stop");
    assertEquals(SimulatedStream.ARN, e.streamArn());
    assertEquals(consumer, e.consumer());
    assertEquals(SimulatedStream.TABLE, e.table().orElseThrow());
    assertTrue(e.currentStreamArn().isEmpty(), "DynamoDB Local has no table of the simulated stream");
    assertEquals(19, handler.taken().size());
    assertEachKeyInWriteOrder(handler.taken());
    Map<String, Checkpoint> stored = storedCheckpoints(consumer);
    assertTrue(stored.values().stream().allMatch(Checkpoint::finished), stored.toString());
  }

  @Test
  void aStreamBeingDisabledIsReadOnWhileAShardIsOpenAndStopsThePollerOnceItIsFinished() {
    SimulatedStream stream = new SimulatedStream().shard("S", null);
    stream.put("S", "k", "k").status(StreamStatus.DISABLING);
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = poller(stream, consumer(), handler)) {
      StreamPollerTest.pollUntilIdle(poller);
      StreamPollerTest.pollUntilIdle(poller);
      assertEquals(2, handler.taken().size());

      stream.put("S", "k").close("S");
      assertThrows(StreamEndedException.class, () -> StreamPollerTest.pollUntilIdle(poller));
    }
    assertEquals(3, handler.taken().size());
  }

  @Test
  void aLatestConsumerSkipsClosedShardsAndStartsOpenOnesAtTheirEnd() {
    SimulatedStream stream = splitAndRollOver();
    String consumer = consumer();
    RecordingHandler handler = new RecordingHandler();

    try (StreamPoller poller = StreamPoller.builder()
        .streamsClient(stream).dynamoDbClient(client).streamArn(SimulatedStream.ARN)
        .checkpointTable(checkpoints).consumer(consumer).handler(handler)
        .startPosition(StartPosition.LATEST).build()) {
      StreamPollerTest.pollUntilIdle(poller);
      stream.put("A1", "k1").put("B1", "k3").put("A2a", "k2");
      StreamPollerTest.pollUntilIdle(poller);
    }

    assertEquals(3, handler.taken().size());
    Map<String, Checkpoint> stored = storedCheckpoints(consumer);
    assertTrue(stored.get("A").finished() && stored.get("B").finished() && stored.get("A2").finished());
    assertEquals(ShardIteratorType.LATEST, stored.get("A1").startAt());
  }
}
