package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.faults.Fault;
import dev.esgen.runtime.faults.FaultInjector;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;

/** Live delivery from DynamoDB Local's table streams: order, duplicates, gaps, calving and failing handlers. */
class ChangeFeedDeliveryTest {

  private static final RetryPolicy QUICK = new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5));

  /** What a projection received, per stream, in the order it received it. */
  private final Map<String, List<RecordedEvent<CounterEvent>>> taken = new ConcurrentHashMap<>();

  private void take(RecordedEvent<CounterEvent> event) {
    taken.computeIfAbsent(event.aggregateId(), id -> new CopyOnWriteArrayList<>()).add(event);
  }

  /** Whether {@code record} is of a tip item rather than of a batch the tip calved. */
  private static boolean isTip(Record record) {
    return Long.toString(TipKeys.TIP_INDEX).equals(record.dynamodb().keys().get(TipAttributes.INDEX).n());
  }

  private List<Long> seqNrs(String id) {
    return taken.getOrDefault(id, List.of()).stream().map(RecordedEvent::seqNr).toList();
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void eachStreamArrivesInOrderAndOnceWhenEveryRecordComesTwice(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    CounterId a = CounterId.random();
    CounterId b = CounterId.random();
    counters.create(new CounterCreated(a, "a"));
    counters.create(new CounterCreated(b, "b"));
    for (int k = 0; k < 4; k++) {
      counters.transact(a, c -> List.of(new Incremented(1, "a1"), new Incremented(2, "a2")));
      counters.transact(b, c -> c.increment("b"));
    }
    counters.transact(b, AppendOptions.metadata(EventMetadata.none().withCorrelationId("request-7").withActor("teller")
        .with("channel", "branch")), c -> c.increment("with metadata"));
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), this::take).build();
    List<Record> records = fixture.records(layout);
    List<Record> twice = new ArrayList<>(records);
    twice.addAll(records);

    feed.handle("shard-1", twice);
    feed.handle("shard-1", records);

    assertEquals(FeedFixture.stored(counters, a.value()), taken.get(a.value()));
    assertEquals(FeedFixture.stored(counters, b.value()), taken.get(b.value()));
    assertEquals(9, fixture.position("log", a.value()));
    assertEquals(6, fixture.position("log", b.value()));
    assertEquals(9, feed.position("log", counters.definition(), a));
    assertEquals("request-7", taken.get(b.value()).get(5).metadata().correlationId().orElseThrow());
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void eventsWhoseRecordsAreMissingOrLateAreReadFromTheStoreFirst(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    for (int k = 0; k < 8; k++) {
      counters.transact(id, c -> c.increment("x"));
    }
    List<GapRead> gaps = new CopyOnWriteArrayList<>();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), this::take)
        .listener(new FeedListener() {
          @Override
          public void onGapRead(GapRead gap) {
            gaps.add(gap);
          }
        })
        .build();
    List<Record> records = fixture.records(layout);
    Record last = records.get(records.size() - 1);
    List<Record> late = new ArrayList<>(records.subList(0, records.size() - 1));
    Collections.reverse(late);

    TestDynamo.requests().reset();
    feed.handle("shard-1", List.of(last));
    int readsForTheGap = TestDynamo.requests().of("GetItem") + TestDynamo.requests().of("Query");
    feed.handle("shard-1", late);

    assertEquals(FeedFixture.stored(counters, id.value()), taken.get(id.value()));
    assertEquals(1, gaps.size(), "the late records found everything taken");
    assertEquals(new GapRead("log", CounterRepository.NAME, id.value(), 1, gaps.get(0).toSeqNr()), gaps.get(0));
    assertTrue(gaps.get(0).toSeqNr() >= 6 && gaps.get(0).toSeqNr() < 9, "the last record holds the last events");
    assertTrue(readsForTheGap >= 2, "the gap was read from the store: " + TestDynamo.requests().snapshot());
    assertEquals(9, fixture.position("log", id.value()));
  }

  @Test
  void calvedTipsAreDecodedFromTheirRecordsWithoutReadingTheStore() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.TIP);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    for (int k = 0; k < 6; k++) {
      counters.transact(id, c -> List.of(new Incremented(1, "x"), new Incremented(1, "y")));
    }
    List<Record> records = fixture.records(FeedFixture.Layout.TIP);
    long batchInserts = records.stream()
        .filter(r -> r.eventName() == OperationType.INSERT)
        .filter(r -> !isTip(r))
        .count();
    assertTrue(batchInserts >= 3, "the tip calved: " + batchInserts + " batches");
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), this::take).build();

    TestDynamo.requests().reset();
    feed.handle("shard-1", records);
    Map<String, Integer> requests = TestDynamo.requests().snapshot();

    assertEquals(Map.of("BatchGetItem", 1, "UpdateItem", 1), requests, "one position read, one written, no gap read");
    assertEquals(FeedFixture.stored(counters, id.value()), taken.get(id.value()));
    assertEquals(LongStream.rangeClosed(1, 13).boxed().toList(), seqNrs(id.value()));
  }

  @Test
  void eventsWrittenStraightToABatchAreDecodedFromTheBatchRecordWithoutReadingTheStore() {
    FeedFixture fixture = new FeedFixture();
    // One event per tip: each append of two goes straight to a batch item, and its tip record holds none.
    CounterRepository counters = new CounterRepository(fixture.store, new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 1, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    for (int k = 0; k < 4; k++) {
      counters.transact(id, c -> List.of(new Incremented(1, "x"), new Incremented(1, "y")));
    }
    List<Record> records = fixture.records(FeedFixture.Layout.TIP);
    assertTrue(records.stream()
        .filter(ChangeFeedDeliveryTest::isTip)
        .skip(1)
        .allMatch(r -> r.dynamodb().newImage().get(TipAttributes.EVENTS).l().isEmpty()),
        "after the creation, no tip record holds an event");
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), this::take).build();

    TestDynamo.requests().reset();
    feed.handle("shard-1", records);

    assertEquals(Map.of("BatchGetItem", 1, "UpdateItem", 1), TestDynamo.requests().snapshot(),
        "one position read, one written, no gap read");
    assertEquals(FeedFixture.stored(counters, id.value()), taken.get(id.value()));
    assertEquals(LongStream.rangeClosed(1, 9).boxed().toList(), seqNrs(id.value()));
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aFailingHandlerHoldsItsStreamUntilARetrySucceedsWhileOtherStreamsGoOn(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    CounterId a = CounterId.random();
    CounterId b = CounterId.random();
    counters.create(new CounterCreated(a, "a"));
    counters.create(new CounterCreated(b, "b"));
    for (int k = 0; k < 5; k++) {
      counters.transact(a, c -> c.increment("a"));
      counters.transact(b, c -> c.increment("b"));
    }
    List<Long> triedOfA = new CopyOnWriteArrayList<>();
    List<String> order = new CopyOnWriteArrayList<>();
    AtomicInteger failures = new AtomicInteger();
    List<DeliveryFailure> reported = new CopyOnWriteArrayList<>();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), event -> {
          if (event.aggregateId().equals(a.value())) {
            triedOfA.add(event.seqNr());
            if (event.seqNr() == 3 && failures.getAndIncrement() < 2) {
              throw new IllegalStateException("read model down");
            }
          }
          order.add(event.aggregateId());
          take(event);
        })
        .retryPolicy(QUICK)
        .listener(new FeedListener() {
          @Override
          public void onDeliveryFailure(DeliveryFailure failure) {
            reported.add(failure);
          }
        })
        .build();
    List<Record> records = fixture.records(layout);

    feed.handle("shard-1", records);

    assertEquals(List.of(1L, 2L, 3L, 3L, 3L, 4L, 5L, 6L), triedOfA, "nothing of a overtook its event 3");
    assertEquals(FeedFixture.stored(counters, a.value()), taken.get(a.value()));
    assertEquals(FeedFixture.stored(counters, b.value()), taken.get(b.value()));
    assertEquals(b.value(), order.get(2), "b went on while a waited at event 3");
    assertEquals(6, fixture.position("log", a.value()));
    assertEquals(2, reported.size());
    for (int k = 0; k < 2; k++) {
      DeliveryFailure failure = reported.get(k);
      assertEquals(List.of("log", CounterRepository.NAME, a.value(), 3L, k + 1, true),
          List.of(failure.projection(), failure.aggregateType(), failure.aggregateId(), failure.seqNr(),
              failure.attempt(), failure.willRetry()));
      assertEquals(IllegalStateException.class, failure.failure().getClass());
    }
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void whenRetriesRunOutHandleThrowsAndTheSameRecordsSentAgainDeliverTheRest(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    CounterId a = CounterId.random();
    CounterId b = CounterId.random();
    counters.create(new CounterCreated(a, "a"));
    counters.create(new CounterCreated(b, "b"));
    for (int k = 0; k < 5; k++) {
      counters.transact(a, c -> List.of(new Incremented(1, "card 4111-1111-1111-1111")));
      counters.transact(b, c -> c.increment("b"));
    }
    AtomicBoolean broken = new AtomicBoolean(true);
    List<DeliveryFailure> reported = new CopyOnWriteArrayList<>();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), event -> {
          if (broken.get() && event.aggregateId().equals(a.value()) && event.seqNr() == 3) {
            throw new IllegalStateException("cannot store " + event.event());
          }
          take(event);
        })
        .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1)))
        .listener(new FeedListener() {
          @Override
          public void onDeliveryFailure(DeliveryFailure failure) {
            reported.add(failure);
          }
        })
        .build();
    List<Record> records = fixture.records(layout);

    ProjectionFailedException e = assertThrows(ProjectionFailedException.class, () -> feed.handle("shard-1", records));

    assertEquals(List.of("log", CounterRepository.NAME, a.value(), 3L, "incremented", 2),
        List.of(e.projection(), e.aggregateName(), e.aggregateId(), e.seqNr(), e.eventType(), e.attempts()));
    assertEquals("projection 'log' failed on event 3 (type 'incremented') of counter " + a.value()
        + " after 2 attempts: IllegalStateException", e.getMessage());
    assertFalse(e.getMessage().contains("4111"));
    assertEquals(List.of(true, false), reported.stream().map(DeliveryFailure::willRetry).toList());
    assertEquals(List.of(1L, 2L), seqNrs(a.value()));
    assertEquals(2, fixture.position("log", a.value()), "what a took is recorded");
    assertEquals(FeedFixture.stored(counters, b.value()), taken.get(b.value()));
    assertEquals(6, fixture.position("log", b.value()));

    broken.set(false);
    feed.handle("shard-1", records);

    assertEquals(FeedFixture.stored(counters, a.value()), taken.get(a.value()));
    assertEquals(FeedFixture.stored(counters, b.value()), taken.get(b.value()));
    assertEquals(6, fixture.position("log", a.value()));
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aPositionTheStoreFailsToReadHoldsItsStreamUntilARetryReadsIt(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> c.increment("one"));
    FaultInjector faults = FaultInjector.builder(1).build();
    // One attempt per request: a throttled read fails the delivery at once.
    DynamoDbEventStore store = DynamoDbEventStore.create(TestDynamo.clientWith(faults),
        fixture.config.withRetryPolicy(new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1))));
    List<DeliveryFailure> reported = new CopyOnWriteArrayList<>();
    FeedListener listener = new FeedListener() {
      @Override
      public void onDeliveryFailure(DeliveryFailure failure) {
        reported.add(failure);
      }
    };
    ChangeFeed feed = ChangeFeed.builder(store)
        .projection("log", counters.definition(), this::take)
        .retryPolicy(QUICK)
        .listener(listener)
        .build();
    List<Record> records = fixture.records(layout);
    // The batch's read of positions and the delivery's own read of its position are both throttled.
    faults.enqueue(BatchGetItemRequest.class, Fault.THROTTLED);
    faults.enqueue(GetItemRequest.class, Fault.THROTTLED);

    feed.handle("shard-1", records);

    assertEquals(FeedFixture.stored(counters, id.value()), taken.get(id.value()));
    assertEquals(2, fixture.position("log", id.value()));
    assertEquals(1, reported.size());
    assertEquals(List.of(1L, 1, true), List.of(reported.get(0).seqNr(), reported.get(0).attempt(),
        reported.get(0).willRetry()), "waiting at the first event offered");
    assertInstanceOf(StoreUnavailableException.class, reported.get(0).failure());

    // A store that stays unavailable fails the batch as a failing handler does, naming the stream.
    faults.always(GetItemRequest.class, Fault.THROTTLED).always(BatchGetItemRequest.class, Fault.THROTTLED);
    ChangeFeed fresh = ChangeFeed.builder(store)
        .projection("other", counters.definition(), this::take)
        .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1)))
        .build();
    ProjectionFailedException e = assertThrows(ProjectionFailedException.class, () -> fresh.handle("shard-1", records));
    assertEquals(List.of("other", id.value(), 2), List.of(e.projection(), e.aggregateId(), e.attempts()));
    assertInstanceOf(StoreUnavailableException.class, e.getCause());
  }
}
