package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class SnapshotTest {

  private static final Instant NOW = Instant.parse("2026-05-06T07:08:09Z");

  private final DynamoDbEventStore store =
      TestDynamo.store(StoreConfig.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC)));

  @Test
  void headRowTakesASnapshotEveryNEventsAndTracksTheLastSeqNrAlways() {
    CounterRepository counters = new CounterRepository(store, SnapshotPolicy.every(3));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    assertHead(id, 1, 1, 1);
    counters.append(id, 1, new Incremented(1));
    assertHead(id, 1, 2, 2);                      // 2 - 1 < 3: no new snapshot, head still moves on
    counters.append(id, 2, new Incremented(1));
    assertHead(id, 1, 3, 3);
    counters.append(id, 3, new Incremented(1));
    assertHead(id, 4, 4, 4);                      // 4 - 1 >= 3: snapshot at 4
    counters.append(id, 4, List.of(new Incremented(1), new Incremented(1)));
    assertHead(id, 4, 6, 5);
    assertEquals(5, counters.load(id).value());
    assertTrue(headRow(id).get(JournalAttributes.PAYLOAD).b().asUtf8String().contains("\"value\":3"));
    assertEquals(1, snapshotRows(id).size(), "keep 0 writes no older snapshot rows");
  }

  @Test
  void keepCountRetainsTheNewestSnapshotsAndDeletesTheOldest() {
    CounterRepository counters = new CounterRepository(store, SnapshotPolicy.every(2).keeping(2));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));                 // snapshot at 1
    assertEquals(List.of(1L), olderSnapshotSeqNrs(id));
    long version = 1;
    for (int i = 0; i < 6; i++) {                                  // seq 2..7: snapshots at 3, 5, 7
      counters.append(id, version++, new Incremented(1));
    }
    assertEquals(List.of(5L, 7L), olderSnapshotSeqNrs(id));
    Map<String, AttributeValue> head = headRow(id);
    assertEquals(List.of("5", "7"), head.get(JournalAttributes.RETAINED_SEQ_NRS).l().stream().map(AttributeValue::n).toList());
    assertEquals("7", head.get(JournalAttributes.SEQ_NR).n());
    Map<String, AttributeValue> older = snapshotRows(id).get(1);
    assertTrue(older.get(JournalAttributes.PAYLOAD).b().asUtf8String().contains("\"value\":4"));
    assertFalse(older.containsKey(JournalAttributes.TTL));
    assertEquals(6, counters.load(id).value());
  }

  @Test
  void loweringKeepToZeroDeletesTheKeptSnapshotsAndForgetsThem() {
    CounterId id = CounterId.random();
    CounterRepository keeping = new CounterRepository(store, SnapshotPolicy.every(1).keeping(2));
    keeping.create(new CounterCreated(id, "c"));
    keeping.append(id, 1, new Incremented(1));
    assertEquals(List.of(1L, 2L), olderSnapshotSeqNrs(id));

    CounterRepository counters = new CounterRepository(store, SnapshotPolicy.every(1));
    counters.append(id, 2, new Incremented(1));

    assertEquals(List.of(), olderSnapshotSeqNrs(id));
    assertFalse(headRow(id).containsKey(JournalAttributes.RETAINED_SEQ_NRS));
    assertHead(id, 3, 3, 3);
    counters.append(id, 3, new Incremented(1));
    assertEquals(3, counters.load(id).value());
    assertEquals(List.of(), olderSnapshotSeqNrs(id));
  }

  @Test
  void ttlModeMarksTheDisplacedSnapshotInsteadOfDeletingIt() {
    CounterRepository counters =
        new CounterRepository(store, SnapshotPolicy.every(1).keeping(1).expiringAfter(Duration.ofDays(2)));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, new Incremented(1));
    counters.append(id, 2, new Incremented(1));
    List<Map<String, AttributeValue>> rows = snapshotRows(id);
    assertEquals(List.of(0L, 1L, 2L, 3L), rows.stream().map(r -> rowSeq(r)).toList());
    long expiry = NOW.plus(Duration.ofDays(2)).getEpochSecond();
    assertEquals(String.valueOf(expiry), rows.get(1).get(JournalAttributes.TTL).n());
    assertEquals(String.valueOf(expiry), rows.get(2).get(JournalAttributes.TTL).n());
    assertFalse(rows.get(3).containsKey(JournalAttributes.TTL), "the retained snapshot does not expire");
    assertEquals(List.of("3"),
        rows.get(0).get(JournalAttributes.RETAINED_SEQ_NRS).l().stream().map(AttributeValue::n).toList());
  }

  private void assertHead(CounterId id, long snapshotSeqNr, long lastSeqNr, long version) {
    Map<String, AttributeValue> head = headRow(id);
    assertEquals(String.valueOf(snapshotSeqNr), head.get(JournalAttributes.SEQ_NR).n(), "seq_nr");
    assertEquals(String.valueOf(lastSeqNr), head.get(JournalAttributes.LAST_SEQ_NR).n(), "last_seq_nr");
    assertEquals(String.valueOf(version), head.get(JournalAttributes.VERSION).n(), "version");
    assertEquals(id.value(), head.get(JournalAttributes.AID).s());
  }

  private Map<String, AttributeValue> headRow(CounterId id) {
    Map<String, AttributeValue> head = snapshotRows(id).get(0);
    assertTrue(head.get(JournalAttributes.SKEY).s().endsWith("-00000000000000000000"));
    return head;
  }

  private static List<Map<String, AttributeValue>> snapshotRows(CounterId id) {
    return TestDynamo.streamItems("snapshot", CounterRepository.NAME, id.value());
  }

  /** The seq_nr in a snapshot row's sort key: 0 for the head row. */
  private static long rowSeq(Map<String, AttributeValue> row) {
    String skey = row.get(JournalAttributes.SKEY).s();
    return Long.parseLong(skey.substring(skey.length() - 20));
  }

  private static List<Long> olderSnapshotSeqNrs(CounterId id) {
    return snapshotRows(id).stream().map(SnapshotTest::rowSeq).filter(s -> s > 0).toList();
  }
}
