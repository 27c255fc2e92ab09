package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.error.StreamRecordDecodingException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.test.StreamedTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** What the change feed makes of stream records: events of followed types, nothing else, and clear refusals. */
class ChangeFeedDecodingTest {

  private static final String SECRET = "4111-1111-1111-1111";

  private final List<RecordedEvent<CounterEvent>> taken = new CopyOnWriteArrayList<>();

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void recordsOfAggregateTypesNoProjectionFollowsAreSkippedWithoutARequest(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> c.increment("x"));
    AggregateDefinition<Counter, CounterId, CounterEvent> gauges = CounterRepository
        .builder("gauge", fixture.store.objectMapper(), SnapshotPolicy.every(100), counters.definition().layout())
        .build();
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("gauges", gauges, taken::add).build();
    List<Record> records = fixture.records(layout);
    assertEquals(2, records.size());

    TestDynamo.requests().reset();
    feed.handle("shard-1", records);

    assertEquals(0, TestDynamo.requests().total());
    assertEquals(List.of(), taken);
  }

  @Test
  void snapshotRowsCommandRecordsAndRemovalsAreNoEvents() {
    FeedFixture fixture = new FeedFixture();
    // A snapshot table of this test's own (the keys are pkey and skey, as StreamedTable's), with a stream and
    // without TTL (see FeedFixture).
    String snapshots = fixture.config.journalTable().replace("feed-j-", "feed-s-");
    StreamedTable.create(TestDynamo.client(), snapshots, StreamViewType.NEW_IMAGE);
    DynamoDbEventStore store = TestDynamo.store(fixture.config.withSnapshotTable(snapshots));
    CounterRepository counters = new CounterRepository(store, SnapshotPolicy.every(1).keeping(1));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    for (int k = 0; k < 4; k++) {
      counters.transact(id, "command-" + k, c -> c.increment("x"));
    }
    List<Record> records;
    try (TableStream stream = TableStream.of(snapshots)) {
      records = stream.readNewRecords();
    }
    assertTrue(records.stream().anyMatch(r -> r.eventName() == OperationType.REMOVE), "older snapshots were deleted");
    assertTrue(records.stream().anyMatch(r -> r.dynamodb().keys().get("skey").s().startsWith("command#")));
    ChangeFeed feed = ChangeFeed.builder(store).projection("log", counters.definition(), taken::add).build();

    TestDynamo.requests().reset();
    feed.handle("shard-1", records);

    assertEquals(List.of(), taken);
    assertEquals(0, TestDynamo.requests().total());
  }

  @Test
  void aRemovedEventItemIsNoEvent() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    counters.create(new CounterCreated(CounterId.random(), "c"));
    Record insert = fixture.records(FeedFixture.Layout.JOURNAL).get(0);
    Record removal = insert.toBuilder()
        .eventName(OperationType.REMOVE)
        .dynamodb(insert.dynamodb().toBuilder().newImage(null).oldImage(insert.dynamodb().newImage()).build())
        .build();
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), taken::add).build();

    feed.handle("shard-1", List.of(removal));

    assertEquals(List.of(), taken);
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aRecordShapedLikeNoEventItemIsRefusedBeforeAnythingIsDelivered(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> List.of(new Noted(SECRET)));
    List<Record> records = new ArrayList<>(fixture.records(layout));
    Record broken = records.get(1);
    Map<String, AttributeValue> image = new HashMap<>(broken.dynamodb().newImage());
    if (layout == FeedFixture.Layout.JOURNAL) {
      image.remove(JournalAttributes.SEQ_NR);
    } else {
      image.put(TipAttributes.CASES, AttributeValue.fromL(image.get(TipAttributes.CASES).l().subList(0, 1)));
    }
    records.set(1, broken.toBuilder().dynamodb(broken.dynamodb().toBuilder().newImage(image).build()).build());
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), taken::add).build();

    StreamRecordDecodingException e =
        assertThrows(StreamRecordDecodingException.class, () -> feed.handle("shard-1", records));

    assertEquals(broken.eventID(), e.eventId());
    assertEquals(broken.dynamodb().sequenceNumber(), e.sequenceNumber());
    assertEquals("cannot read stream record " + broken.eventID() + " (sequence number "
        + broken.dynamodb().sequenceNumber() + ") of counter " + id.value() + ": "
        + (layout == FeedFixture.Layout.JOURNAL
            ? "a journal event item without a whole number in seq_nr"
            : "the tip holds 2 events and 1 type names, from index 0 to 2"), e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
    assertEquals(List.of(), taken, "the valid record before it was not delivered either");
    assertEquals(0, fixture.position("log", id.value()));
  }

  @Test
  void aRecordWithoutNewImageSaysWhichViewTypeTheFeedNeeds() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.TIP);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    Record record = fixture.records(FeedFixture.Layout.TIP).get(0);
    Record keysOnly = record.toBuilder().dynamodb(record.dynamodb().toBuilder().newImage(null).build()).build();
    ChangeFeed feed = ChangeFeed.builder(fixture.store).projection("log", counters.definition(), taken::add).build();

    StreamRecordDecodingException e =
        assertThrows(StreamRecordDecodingException.class, () -> feed.handle("shard-1", List.of(keysOnly)));

    assertTrue(e.getMessage().endsWith("of counter item [counter#" + id.value() + ", 9223372036854775807]: the"
        + " record has no new image; enable the table's stream with view type NEW_IMAGE"), e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void anEventTheCodecCannotReadStopsItsStreamWithoutQuotingIt(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(layout);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> List.of(new Noted(SECRET)));
    List<Record> records = new ArrayList<>(fixture.records(layout));
    Record changed = records.get(1);
    Map<String, AttributeValue> image = new HashMap<>(changed.dynamodb().newImage());
    if (layout == FeedFixture.Layout.JOURNAL) {
      image.put(JournalAttributes.EVENT_TYPE, AttributeValue.fromS("renamed"));
    } else {
      image.put(TipAttributes.CASES, AttributeValue.fromL(List.of(
          AttributeValue.fromS("counter-created"), AttributeValue.fromS("renamed"))));
    }
    records.set(1, changed.toBuilder().dynamodb(changed.dynamodb().toBuilder().newImage(image).build()).build());
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), taken::add)
        .retryPolicy(RetryPolicy.noRetries())
        .build();

    ProjectionFailedException e = assertThrows(ProjectionFailedException.class, () -> feed.handle("shard-1", records));

    EventDecodingException cause = assertInstanceOf(EventDecodingException.class, e.getCause());
    assertEquals(List.of(2L, "renamed"), List.of(cause.seqNr(), cause.eventType()));
    assertEquals("projection 'log' failed on event 2 (type 'renamed') of counter " + id.value() + " after 1 attempt:"
        + " cannot decode event 2 (type 'renamed') of counter " + id.value() + ": IllegalArgumentException",
        e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
    assertEquals(List.of(1L), taken.stream().map(RecordedEvent::seqNr).toList());
    assertEquals(1, fixture.position("log", id.value()));
  }

  @Test
  void aGapReadHandsOverTheEventsBeforeOneTheCodecCannotReadAndStopsAtThatOne() {
    FeedFixture fixture = new FeedFixture();
    CounterRepository counters = fixture.counters(FeedFixture.Layout.JOURNAL);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    for (int i = 0; i < 4; i++) {
      counters.transact(id, c -> List.of(new Noted(SECRET)));
    }
    List<Record> records = fixture.records(FeedFixture.Layout.JOURNAL);
    assertEquals(5, records.size());
    // Stored event 4 gets a type no codec knows; the batch lacks events 2 to 4, which the feed reads.
    TestDynamo.client().updateItem(b -> b.tableName(fixture.config.journalTable())
        .key(records.get(3).dynamodb().keys())
        .updateExpression("SET #type = :type")
        .expressionAttributeNames(Map.of("#type", JournalAttributes.EVENT_TYPE))
        .expressionAttributeValues(Map.of(":type", AttributeValue.fromS("renamed"))));
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("log", counters.definition(), taken::add)
        .retryPolicy(RetryPolicy.noRetries())
        .build();

    ProjectionFailedException e = assertThrows(ProjectionFailedException.class,
        () -> feed.handle("shard-1", List.of(records.get(0), records.get(4))));

    assertTrue(e.getMessage().startsWith("projection 'log' failed on event 4 (type 'renamed') of counter "),
        e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
    assertEquals(List.of(1L, 2L, 3L), taken.stream().map(RecordedEvent::seqNr).toList());
    assertEquals(3, fixture.position("log", id.value()));
  }
}
