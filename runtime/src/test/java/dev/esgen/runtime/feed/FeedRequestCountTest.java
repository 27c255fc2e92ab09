package dev.esgen.runtime.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * The DynamoDB requests the change feed sends per projected event, counted by the test client's
 * interceptor: 10 streams of 5 events (a create and four single-event appends), 50 events in all. The
 * figures are in docs/projections.md.
 */
class FeedRequestCountTest {

  private static final int STREAMS = 10;

  /** The records of {@value #STREAMS} fresh counters, and the counters' repository. */
  private record Written(CounterRepository counters, List<Record> records) {}

  private static Written write(FeedFixture fixture, FeedFixture.Layout layout) {
    CounterRepository counters = fixture.counters(layout);
    for (int k = 0; k < STREAMS; k++) {
      CounterId id = CounterId.random();
      counters.create(new CounterCreated(id, "c"));
      for (int n = 0; n < 4; n++) {
        counters.transact(id, c -> c.increment("x"));
      }
    }
    return new Written(counters, fixture.records(layout));
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void atLeastOnceInOneBatchReadsThePositionsOnceAndWritesOnePerStream(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    Written written = write(fixture, layout);
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("count", written.counters().definition(), event -> { })
        .build();

    TestDynamo.requests().reset();
    feed.handle("shard-1", written.records());

    assertEquals(Map.of("BatchGetItem", 1, "UpdateItem", STREAMS), TestDynamo.requests().snapshot());
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void atLeastOnceOneRecordPerBatchCostsAReadAndAWritePerRecord(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    Written written = write(fixture, layout);
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("count", written.counters().definition(), event -> { })
        .build();

    TestDynamo.requests().reset();
    for (Record record : written.records()) {
      feed.handle("shard-1", List.of(record));
    }

    // Every record costs a position read. On the tip a calved batch's record (one per stream here) brings
    // only events the tip's earlier records brought, so it writes nothing.
    int records = layout == FeedFixture.Layout.JOURNAL ? 5 * STREAMS : 6 * STREAMS;
    assertEquals(records, written.records().size());
    assertEquals(Map.of("BatchGetItem", records, "UpdateItem", 5 * STREAMS), TestDynamo.requests().snapshot());
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void exactlyOnceCommitsOneTransactionPerEventThatWrites(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    Written written = write(fixture, layout);
    CounterTotals totals = new CounterTotals(fixture.createReadModelTable());
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .transactionalProjection("totals", written.counters().definition(), totals)
        .build();

    TestDynamo.requests().reset();
    feed.handle("shard-1", written.records());

    assertEquals(Map.of("BatchGetItem", 1, "TransactWriteItems", 5 * STREAMS), TestDynamo.requests().snapshot());
  }

  @ParameterizedTest
  @EnumSource(FeedFixture.Layout.class)
  void aStreamWhoseOnlyRecordIsItsLastReadsItsGapOnce(FeedFixture.Layout layout) {
    FeedFixture fixture = new FeedFixture();
    Written written = write(fixture, layout);
    Map<String, Record> lastPerStream = new LinkedHashMap<>();
    for (Record record : written.records()) {
      lastPerStream.put(streamOf(record), record);
    }
    ChangeFeed feed = ChangeFeed.builder(fixture.store)
        .projection("count", written.counters().definition(), event -> { })
        .build();

    TestDynamo.requests().reset();
    feed.handle("shard-1", new ArrayList<>(lastPerStream.values()));

    // Journal: the head row and one query of events 1 to 4. Tip: the tip (events 4 and 5), then the batch
    // holding event 1 and the batches up to the tip's first event, two queries.
    Map<String, Integer> expected = layout == FeedFixture.Layout.JOURNAL
        ? Map.of("BatchGetItem", 1, "GetItem", STREAMS, "Query", STREAMS, "UpdateItem", STREAMS)
        : Map.of("BatchGetItem", 1, "GetItem", STREAMS, "Query", 2 * STREAMS, "UpdateItem", STREAMS);
    assertEquals(STREAMS, lastPerStream.size());
    assertEquals(expected, TestDynamo.requests().snapshot());
  }

  /** The stream a record's item belongs to: the tip layout's partition key, the journal's {@code aid}. */
  private static String streamOf(Record record) {
    Map<String, AttributeValue> keys = record.dynamodb().keys();
    return keys.containsKey(TipAttributes.STREAM)
        ? keys.get(TipAttributes.STREAM).s()
        : record.dynamodb().newImage().get(JournalAttributes.AID).s();
  }
}
