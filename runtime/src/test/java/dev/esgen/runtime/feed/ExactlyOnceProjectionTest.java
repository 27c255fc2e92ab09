package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.faults.Fault;
import dev.esgen.runtime.faults.FaultInjector;
import dev.esgen.runtime.internal.feed.PositionStore;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** The exactly-once helper: read-model writes committed with the position, in one transaction. */
class ExactlyOnceProjectionTest {

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void recordsDeliveredTwiceAndOutOfOrderChangeTheReadModelOnce(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    List<CounterId> ids = writeCounters(counters, 3, new Random(7));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("totals", counters.definition(), totals)
        .build();
    List<Record> records = fixture.records(layout);
    List<Record> shuffled = new ArrayList<>(records);
    Collections.shuffle(shuffled, new Random(11));

    feed.handle("shard-1", shuffled);
    feed.handle("shard-1", records);
    feed.handle("shard-1", shuffled);

    assertReadModelIsTheFold(fixture, counters, totals, ids);
  }

  @Test
  void twoFeedsDeliveringTheSameRecordsAtOnceChangeTheReadModelOnce() throws Exception {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    List<CounterId> ids = writeCounters(counters, 4, new Random(3));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    List<Record> records = fixture.records(FeedFixture.Layout.JOURNAL);
    // Two feeds share no locks, as two processes would not: only the positions' conditions keep them apart.
    CyclicBarrier start = new CyclicBarrier(2);
    List<CompletableFuture<Void>> running = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      ChangeFeed feed = ChangeFeed.builder(fixture.store)
          .transactionalProjection("totals", counters.definition(), totals)
          .build();
      running.add(CompletableFuture.runAsync(() -> {
        await(start);
        feed.handle("shard-1", records);
      }));
    }
    for (CompletableFuture<Void> feed : running) {
      feed.get();
    }

    assertReadModelIsTheFold(fixture, counters, totals, ids);
  }

  @Test
  void aCommitWhoseResponseWasLostIsAppliedOnce() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.TIP);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> List.of(new Incremented(5), new Incremented(7)));
    counters.transact(id, c -> List.of(new Noted("no write")));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    FaultInjector faults = FaultInjector.builder(1).build();
    DynamoDbEventStore faultyStore = DynamoDbEventStore.create(TestDynamo.clientWith(faults), fixture.config);
    ChangeFeed feed = ChangeFeed.builder(faultyStore)
        .transactionalProjection("totals", counters.definition(), totals)
        .build();
    List<Record> records = fixture.records(FeedFixture.Layout.TIP);
    // The first commit is applied but its response lost; so is the update that moves the position past the
    // note, which causes no write of its own.
    faults.enqueue(TransactWriteItemsRequest.class, Fault.LOST_RESPONSE);
    faults.enqueue(UpdateItemRequest.class, Fault.LOST_RESPONSE);

    feed.handle("shard-1", records);

    assertEquals(2L, faults.injected().get(Fault.LOST_RESPONSE));
    assertEquals(12, totals.total(id.value()));
    assertEquals(3, totals.changes(id.value()));
    assertEquals(4, fixture.position("totals", id.value()));

    feed.handle("shard-1", records);

    assertEquals(12, totals.total(id.value()));
    assertEquals(3, totals.changes(id.value()));
  }

  @Test
  void aCommitFindingThePositionMovedPartWayGoesOnFromThereWithoutSkippingAnEventOfTheGap() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    CounterId id = CounterId.random();
    counters.create(List.of(new CounterCreated(id, "c"), new Noted("no write"), new Incremented(1, "one"),
        new Incremented(10, "ten"), new Incremented(100, "hundred")));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    // Another process takes the note (no write) and moves the position from 1 to 2 just before this
    // feed commits the first increment, conditioned on position 1.
    AtomicInteger commits = new AtomicInteger();
    ExecutionInterceptor otherProcess = new ExecutionInterceptor() {
      @Override
      public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        if (context.request() instanceof TransactWriteItemsRequest && commits.incrementAndGet() == 2) {
          TestDynamo.client().updateItem(b -> b
              .tableName(fixture.config.positionsTable())
              .key(Map.of(PositionStore.PROJECTION, AttributeValue.fromS("totals"),
                  PositionStore.STREAM, AttributeValue.fromS(CounterRepository.NAME + "#" + id.value())))
              .updateExpression("SET #n = :n")
              .conditionExpression("#n = :before")
              .expressionAttributeNames(Map.of("#n", PositionStore.SEQ_NR))
              .expressionAttributeValues(Map.of(":n", AttributeValue.fromN("2"), ":before", AttributeValue.fromN("1"))));
        }
      }
    };
    DynamoDbEventStore racedStore = DynamoDbEventStore.create(TestDynamo.clientWith(otherProcess), fixture.config);
    ChangeFeed feed = ChangeFeed.builder(racedStore)
        .transactionalProjection("totals", counters.definition(), totals)
        .build();
    List<Record> records = fixture.records(FeedFixture.Layout.JOURNAL);

    feed.handle("shard-1", records.subList(records.size() - 1, records.size()));   // events 1 to 4 are a gap

    assertEquals(111, totals.total(id.value()), "every increment applied once");
    assertEquals(4, totals.changes(id.value()));
    assertEquals(5, fixture.position("totals", id.value()));
  }

  @Test
  void writesTheReadModelRefusesFailTheProjectionAndLeaveThePositionBeforeTheEvent() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> c.increment("x"));
    String table = fixture.createReadModelTable();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("strict", counters.definition(), recorded -> List.of(TransactWriteItem.builder()
            .put(p -> p.tableName(table)
                .item(Map.of(FeedFixture.READ_MODEL_KEY, AttributeValue.fromS(recorded.aggregateId())))
                .conditionExpression("attribute_not_exists(#k)")
                .expressionAttributeNames(Map.of("#k", FeedFixture.READ_MODEL_KEY)))
            .build()))
        .retryPolicy(RetryPolicy.noRetries())
        .build();
    List<Record> records = fixture.records(FeedFixture.Layout.JOURNAL);

    ProjectionFailedException e = assertThrows(ProjectionFailedException.class, () -> feed.handle("shard-1", records));

    assertEquals(2, e.seqNr());
    assertInstanceOf(TransactionCanceledException.class, e.getCause());
    assertEquals(1, fixture.position("strict", id.value()));
  }

  /** Not waited for, as no wait brings it; the cause names the transaction's tables, as DynamoDB names none. */
  @Test
  void aReadModelTableThatDoesNotExistFailsAtOnceWithMissingTableException() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    String missing = "no-such-read-model-" + UUID.randomUUID();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("lost", counters.definition(), recorded -> List.of(TransactWriteItem.builder()
            .put(p -> p.tableName(missing)
                .item(Map.of(FeedFixture.READ_MODEL_KEY, AttributeValue.fromS(recorded.aggregateId()))))
            .build()))
        .build();
    List<Record> records = fixture.records(FeedFixture.Layout.JOURNAL);

    ProjectionFailedException e = assertThrows(ProjectionFailedException.class, () -> feed.handle("shard-1", records));

    assertEquals(1, e.attempts());
    MissingTableException cause = assertInstanceOf(MissingTableException.class, e.getCause());
    assertEquals(List.of(missing, fixture.store.config().positionsTable()), cause.tables());
    assertTrue(cause.getMessage().contains("the projection's own tables are the application's to create"),
        cause.getMessage());
    assertEquals(0, fixture.position("lost", id.value()));
  }

  @Test
  void moreWritesThanATransactionHoldsAreRefusedNamingTheLimit() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    String table = fixture.createReadModelTable();
    List<TransactWriteItem> tooMany = new ArrayList<>();
    for (int k = 0; k < 100; k++) {
      int item = k;
      tooMany.add(TransactWriteItem.builder().put(p -> p.tableName(table)
          .item(Map.of(FeedFixture.READ_MODEL_KEY, AttributeValue.fromS("item-" + item)))).build());
    }
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("wide", counters.definition(), recorded -> tooMany)
        .retryPolicy(RetryPolicy.noRetries())
        .build();
    List<Record> records = fixture.records(FeedFixture.Layout.JOURNAL);

    ProjectionFailedException e = assertThrows(ProjectionFailedException.class, () -> feed.handle("shard-1", records));

    assertEquals("projection 'wide' returned 100 writes for event 1 of counter " + id.value() + ", but one"
        + " transaction holds at most 99 besides the position", e.getCause().getMessage());
    assertEquals(Map.of(), FeedFixture.readModel(table, "item-0"));
    assertEquals(0, fixture.position("wide", id.value()));
  }

  /** {@code count} counters with a few appends each, some of several events, some of notes only. */
  static List<CounterId> writeCounters(CounterRepository counters, int count, Random random) {
    List<CounterId> ids = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      CounterId id = CounterId.random();
      counters.create(new CounterCreated(id, "c" + k));
      ids.add(id);
    }
    for (int round = 0; round < 5; round++) {
      for (CounterId id : ids) {
        int by = 1 + random.nextInt(9);
        List<CounterEvent> events = random.nextInt(4) == 0
            ? List.of(new Noted("n" + round))
            : List.of(new Incremented(by, "r" + round), new Incremented(1, "one"));
        counters.transact(id, c -> events);
      }
    }
    return ids;
  }

  private static void assertReadModelIsTheFold(
      FeedFixture fixture, CounterRepository counters, CounterTotals totals, List<CounterId> ids) {
    for (CounterId id : ids) {
      Counter counter = counters.load(id);
      long changes = FeedFixture.stored(counters, id.value()).stream()
          .filter(e -> !(e.event() instanceof Noted))
          .count();
      assertEquals(counter.value(), totals.total(id.value()), id.value());
      assertEquals(changes, totals.changes(id.value()), id.value());
      assertEquals(counters.loadVersioned(id).seqNr(), fixture.position("totals", id.value()));
    }
    assertTrue(ids.size() > 0);
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
