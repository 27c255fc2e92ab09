package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.codec.EventCodec;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.faults.Fault;
import dev.esgen.runtime.faults.FaultInjector;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.testing.TestDynamo;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * The change feed hands a projection a stream's events as the stream's history reads them after the
 * events evolved: from each stored name and version through the upcasters, a stored event split into
 * several or dropped, whether the events came in the batch or were read to fill a gap.
 */
class ChangeFeedUpcastingTest {

  /**
   * Counters as they were written: notes at version 2, so that the stored version attribute is there
   * to be read.
   */
  private static final class Written extends Codec {
    Written(DynamoDbEventStore store) {
      super(store);
    }

    @Override
    public int version(CounterEvent event) {
      return event instanceof Noted ? 2 : 1;
    }
  }

  /**
   * Counters after an evolution, as an upcaster chain reads them: a note stored as "split" stands for two
   * increments now, one stored as "drop" for nothing, any other note for itself with the version it was
   * stored at appended to its text.
   */
  private static final class Evolved extends Codec {
    Evolved(DynamoDbEventStore store) {
      super(store);
    }

    @Override
    public List<CounterEvent> decodeStored(String typeName, int version, byte[] body) throws IOException {
      CounterEvent event = decode(typeName, body);
      if (!(event instanceof Noted noted)) {
        return List.of(event);
      }
      return switch (noted.text()) {
        case "split" -> List.of(new Incremented(1, "from-split"), new Incremented(1, "from-split"));
        case "drop" -> List.of();
        default -> List.of(new Noted(noted.text() + "@v" + version));
      };
    }
  }

  /**
   * Counters after an evolution that splits the creation: it stands for the creation and a note now, so
   * that the stream's first stored event is split and its last part writes nothing to {@link CounterTotals}.
   */
  private static final class CreationSplit extends Codec {
    CreationSplit(DynamoDbEventStore store) {
      super(store);
    }

    @Override
    public List<CounterEvent> decodeStored(String typeName, int version, byte[] body) throws IOException {
      CounterEvent event = decode(typeName, body);
      return event instanceof CounterCreated ? List.of(event, new Noted("created")) : List.of(event);
    }
  }

  /** The counter's codec, to be told apart by the two above. */
  private abstract static class Codec implements EventCodec<CounterEvent> {
    private final EventCodec<CounterEvent> plain;

    Codec(DynamoDbEventStore store) {
      plain = CounterRepository.definition(store.objectMapper(), SnapshotPolicy.every(100)).eventCodec();
    }

    @Override
    public String typeName(CounterEvent event) {
      return plain.typeName(event);
    }

    @Override
    public byte[] encode(CounterEvent event) throws IOException {
      return plain.encode(event);
    }

    @Override
    public CounterEvent decode(String typeName, byte[] body) throws IOException {
      return plain.decode(typeName, body);
    }
  }

  private static CounterRepository counters(FeedFixture fixture, FeedFixture.Layout layout, EventCodec<CounterEvent> codec) {
    AggregateDefinition<Counter, CounterId, CounterEvent> definition = CounterRepository.builder(
            CounterRepository.NAME, fixture.store.objectMapper(), SnapshotPolicy.every(100),
            layout == FeedFixture.Layout.JOURNAL ? LayoutKind.JOURNAL : LayoutKind.TIP)
        .tipPolicy(new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 3, true))
        .eventCodec(codec)
        .build();
    return new CounterRepository(fixture.store, definition);
  }

  /**
   * Creates counter {@code id} with three notes, as they were written: one the evolved codec splits into
   * two increments, one it drops, one it keeps.
   */
  private static void writeNotes(FeedFixture fixture, FeedFixture.Layout layout, CounterId id) {
    counters(fixture, layout, new Written(fixture.store)).create(
        List.of(new CounterCreated(id, "c"), new Noted("split"), new Noted("drop"), new Noted("kept")));
  }

  private static String shown(RecordedEvent<CounterEvent> recorded) {
    return recorded.seqNr() + " " + recorded.eventType() + " " + recorded.event();
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void eventsInTheBatchAreDeliveredAsTheHistoryReadsThem(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterId id = CounterId.random();
    writeNotes(fixture, layout, id);
    CounterRepository now = counters(fixture, layout, new Evolved(fixture.store));

    List<String> taken = new CopyOnWriteArrayList<>();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", now.definition(), recorded -> taken.add(shown(recorded)))
        .build();
    feed.handle("shard-1", fixture.records(layout));

    List<String> history = FeedFixture.stored(now, id.value()).stream().map(ChangeFeedUpcastingTest::shown).toList();
    assertEquals(4, history.size(), "created, two increments from the split note, the kept note: " + history);
    assertEquals("4 noted Noted[text=kept@v2]", history.get(3));
    assertEquals(history, taken);
    assertEquals(4, fixture.position("log", id.value()), "the position is the last stored event's");
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void eventsReadToFillAGapAreDeliveredAsTheHistoryReadsThem(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterId id = CounterId.random();
    writeNotes(fixture, layout, id);
    CounterRepository now = counters(fixture, layout, new Evolved(fixture.store));
    List<Record> records;
    try (TableStream stream = fixture.stream(layout)) {
      stream.readNewRecords();                                   // the creation's records never arrive
      now.append(id, 1, new Incremented(7, "after"));
      records = stream.readNewRecords();
    }

    List<String> taken = new CopyOnWriteArrayList<>();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", now.definition(), recorded -> taken.add(shown(recorded)))
        .build();
    feed.handle("shard-1", records.subList(records.size() - 1, records.size()));

    List<String> history = FeedFixture.stored(now, id.value()).stream().map(ChangeFeedUpcastingTest::shown).toList();
    assertEquals(5, history.size(), history.toString());
    assertEquals(history, taken);
    assertEquals(5, fixture.position("log", id.value()));
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aTransactionalProjectionCommitsTheEventsOfASplitStoredEventOnceWithItsPosition(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterId id = CounterId.random();
    writeNotes(fixture, layout, id);
    CounterRepository now = counters(fixture, layout, new Evolved(fixture.store));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("totals", now.definition(), totals)
        .build();
    List<Record> records = fixture.records(layout);

    feed.handle("shard-1", records);
    feed.handle("shard-1", records);

    assertEquals(2, totals.total(id.value()), "the two increments the split note stands for, once each");
    assertEquals(3, totals.changes(id.value()), "the creation and the two increments");
    assertEquals(4, fixture.position("totals", id.value()));
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aSplitStoredEventIsCommittedWhenItIsTheFirstEventOfTheStreamToWrite(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterId id = CounterId.random();
    writeNotes(fixture, layout, id);
    CounterRepository now = counters(fixture, layout, new Evolved(fixture.store));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    // The creation writes nothing: the parts of the split note are the stream's first commits, from no
    // position, and the first of them stores the position as 0 while it counts its part.
    TransactionalProjection<CounterEvent> incrementsOnly =
        recorded -> recorded.event() instanceof Incremented ? totals.writes(recorded) : List.of();
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("totals", now.definition(), incrementsOnly)
        .build();
    List<Record> records = fixture.records(layout);

    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> feed.handle("shard-1", records));
    feed.handle("shard-1", records);

    assertEquals(2, totals.total(id.value()), "the two increments the split note stands for, once each");
    assertEquals(2, totals.changes(id.value()));
    assertEquals(4, fixture.position("totals", id.value()));
  }

  /**
   * {@code totals}' projection, except that the second event of the split note fails the first time it is
   * asked for; {@code fromSplit} counts how often the split note's events were asked for.
   */
  private static TransactionalProjection<CounterEvent> failingOnceOnTheSecondSplitEvent(CounterTotals totals,
      AtomicInteger fromSplit) {
    return recorded -> {
      if (recorded.event() instanceof Incremented incremented && incremented.tag().equals("from-split")
          && fromSplit.incrementAndGet() == 2) {
        throw new IllegalStateException("the read model is not reachable");
      }
      return totals.writes(recorded);
    };
  }

  @Test
  void aDeliveryThatStopsBetweenTheEventsOfASplitStoredEventGoesOnAfterThoseItCommitted() {
    FeedFixture fixture = new FeedFixture();
    CounterId id = CounterId.random();
    writeNotes(fixture, FeedFixture.Layout.JOURNAL, id);
    CounterRepository now = counters(fixture, FeedFixture.Layout.JOURNAL, new Evolved(fixture.store));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    AtomicInteger fromSplit = new AtomicInteger();
    TransactionalProjection<CounterEvent> failingOnce = failingOnceOnTheSecondSplitEvent(totals, fromSplit);
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("totals", now.definition(), failingOnce)
        .build();
    feed.handle("shard-1", fixture.records(FeedFixture.Layout.JOURNAL));

    assertEquals(3, fromSplit.get(), "the first event once, the second twice: it failed, then it was taken");
    assertEquals(2, totals.total(id.value()));
    assertEquals(3, totals.changes(id.value()), "the creation and the two increments, once each");
    assertEquals(4, fixture.position("totals", id.value()));
  }

  @Test
  void aDeliveryThatStopsBetweenTheEventsOfASplitStoredEventAfterAnEventWithoutWritesCommitsEachOnce() {
    FeedFixture fixture = new FeedFixture();
    CounterId id = CounterId.random();
    // A note the projection writes nothing for comes between the creation and the split note.
    counters(fixture, FeedFixture.Layout.JOURNAL, new Written(fixture.store)).create(
        List.of(new CounterCreated(id, "c"), new Noted("kept"), new Noted("split")));
    CounterRepository now = counters(fixture, FeedFixture.Layout.JOURNAL, new Evolved(fixture.store));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    AtomicInteger fromSplit = new AtomicInteger();
    TransactionalProjection<CounterEvent> failingOnce = failingOnceOnTheSecondSplitEvent(totals, fromSplit);
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("totals", now.definition(), failingOnce)
        .build();
    feed.handle("shard-1", fixture.records(FeedFixture.Layout.JOURNAL));

    assertEquals(2, totals.total(id.value()), "each event of the split note applied once");
    assertEquals(3, totals.changes(id.value()), "the creation and the two increments, once each");
    assertEquals(3, fixture.position("totals", id.value()));
    assertEquals(3, fromSplit.get(), "the first event once, the second twice: it failed, then it was taken");
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aCommitOfAPartWhoseResponseWasLostIsAppliedOnce(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterId id = CounterId.random();
    writeNotes(fixture, layout, id);
    FaultInjector faults = FaultInjector.builder(1).build();
    DynamoDbEventStore faultyStore = DynamoDbEventStore.create(TestDynamo.clientWith(faults), fixture.config);
    CounterRepository now = counters(fixture, layout, new Evolved(faultyStore));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    ChangeFeed feed = ChangeFeed.builder(faultyStore)
        .transactionalProjection("totals", now.definition(), totals)
        .build();
    List<Record> records = fixture.records(layout);
    // Every commit is applied and its response lost: the creation's, then each part's of the split note.
    faults.enqueue(TransactWriteItemsRequest.class, Fault.LOST_RESPONSE, Fault.LOST_RESPONSE, Fault.LOST_RESPONSE);

    feed.handle("shard-1", records);
    feed.handle("shard-1", records);

    assertEquals(3L, faults.injected().get(Fault.LOST_RESPONSE));
    assertEquals(2, totals.total(id.value()));
    assertEquals(3, totals.changes(id.value()));
    assertEquals(4, fixture.position("totals", id.value()));
  }

  /**
   * The first stored event is split and its last part writes nothing: its first part stores the position
   * as 0 with a part count, and the commit of the next event (from position 0) must find that position.
   */
  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aSplitFirstEventWhoseLastPartWritesNothingIsFollowedByTheNextEvents(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterId id = CounterId.random();
    counters(fixture, layout, new Written(fixture.store))
        .create(List.of(new CounterCreated(id, "c"), new Incremented(5, "five")));
    CounterRepository now = counters(fixture, layout, new CreationSplit(fixture.store));
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("totals", now.definition(), totals)
        .retryPolicy(new dev.esgen.runtime.config.RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(10),
            Duration.ofSeconds(5)))
        .build();
    List<Record> records = fixture.records(layout);

    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> feed.handle("shard-1", records));
    feed.handle("shard-1", records);

    assertEquals(5, totals.total(id.value()));
    assertEquals(2, totals.changes(id.value()), "the creation and the increment, once each");
    assertEquals(2, fixture.position("totals", id.value()));
  }
}
