package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.NamePrefixColumn;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class LimitsTest {

  private final CounterRepository counters = new CounterRepository(TestDynamo.store());

  @Test
  void anEventOverTheItemLimitIsRefusedBeforeAnythingIsSent() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    long journalItems = TestDynamo.itemCount("journal");
    long snapshotItems = TestDynamo.itemCount("snapshot");
    TestDynamo.requests().reset();

    ItemTooLargeException e = assertThrows(ItemTooLargeException.class,
        () -> counters.append(id, 1, List.of(new Incremented(1), new Noted("x".repeat(410_000)))));

    assertEquals("event 3", e.item());
    assertEquals(id.value(), e.aggregateId());
    assertTrue(e.sizeBytes() > 410_000 && e.sizeBytes() < 411_000, "size " + e.sizeBytes());
    assertEquals(409_600, e.limitBytes());
    assertTrue(e.getMessage().contains("409,600"), e.getMessage());
    assertEquals(0, TestDynamo.requests().of("TransactWriteItems"));
    assertEquals(journalItems, TestDynamo.itemCount("journal"));
    assertEquals(snapshotItems, TestDynamo.itemCount("snapshot"));
  }

  @Test
  void anEventJustUnderTheItemLimitIsStored() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, new Noted("x".repeat(400_000)));
    assertEquals(1, counters.load(id).notes());
  }

  @Test
  void aTransactionOfMoreThanOneHundredActionsIsRefusedBeforeAnythingIsSent() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, increments(99));           // 99 journal puts + the head row: exactly 100
    long journalItems = TestDynamo.itemCount("journal");
    TestDynamo.requests().reset();

    TransactionTooLargeException e =
        assertThrows(TransactionTooLargeException.class, () -> counters.append(id, 2, increments(100)));

    assertEquals(101, e.actionCount());
    assertEquals(100, e.actionLimit());
    assertTrue(e.getMessage().contains("101 actions"), e.getMessage());
    assertEquals(0, TestDynamo.requests().of("TransactWriteItems"));
    assertEquals(journalItems, TestDynamo.itemCount("journal"));
    assertEquals(99, counters.load(id).value());
  }

  @Test
  void aSnapshotOverTheItemLimitIsSkippedCountingTheAttributesTheHeadRowKeeps() {
    // A snapshot on every append and an indexed value the appends never change: the head update names
    // neither aid nor that slot, yet the row keeps both and DynamoDB limits the whole row.
    RecordingListener heard = new RecordingListener();
    List<SkippedSnapshot> skipped = heard.skippedSnapshots();
    DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withListener(heard));
    CounterRepository counters = new CounterRepository(store,
        CounterRepository.builder("big-head-counter", store.objectMapper(), SnapshotPolicy.every(1))
            .indexColumns(new NamePrefixColumn())
            .build());
    CounterId probe = CounterId.random();
    counters.create(new CounterCreated(probe, "x".repeat(300_000)));
    long slack = ItemTooLargeException.LIMIT_BYTES - ItemSize.of(headRow(probe));
    // A head row 20 bytes under the limit; a 64-character note then grows its snapshot past it.
    CounterId id = new CounterId(probe.value().replace('-', '_'));
    String name = "x".repeat(300_000 + (int) slack - 20);
    counters.create(new CounterCreated(id, name));
    assertEquals(ItemTooLargeException.LIMIT_BYTES - 20, ItemSize.of(headRow(id)));

    Versioned<Counter> noted = counters.append(id, 1, new Noted("n".repeat(64)));
    counters.append(noted, List.of(new Noted("m".repeat(64))));

    assertEquals(2, skipped.size());
    assertEquals(List.of(2L, 3L), skipped.stream().map(SkippedSnapshot::seqNr).toList());
    assertTrue(skipped.get(0).sizeBytes() > ItemTooLargeException.LIMIT_BYTES, "size " + skipped.get(0).sizeBytes());
    assertEquals(id.value(), skipped.get(0).aggregateId());
    Map<String, AttributeValue> head = headRow(id);
    assertEquals("1", head.get(JournalAttributes.SEQ_NR).n(), "the snapshot that fitted stays");
    assertEquals("3", head.get(JournalAttributes.LAST_SEQ_NR).n());
    assertEquals(new Versioned<>(new Counter(id, name, 0, 2, "m".repeat(64)), 3, 3), counters.loadVersioned(id));
  }

  @Test
  void aCreatingSnapshotOverTheItemLimitIsSkippedAndTheStreamLoadsFromItsEvents() {
    RecordingListener heard = new RecordingListener();
    List<SkippedSnapshot> skipped = heard.skippedSnapshots();
    DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withListener(heard));
    CounterRepository counters = new CounterRepository(store,
        CounterRepository.builder("big-head-counter", store.objectMapper(), SnapshotPolicy.every(1))
            .indexColumns(new NamePrefixColumn())
            .build());
    CounterId probe = CounterId.random();
    counters.create(new CounterCreated(probe, "x".repeat(300_000)));
    long slack = ItemTooLargeException.LIMIT_BYTES
        - ItemSize.of(TestDynamo.streamItems("journal", "big-head-counter", probe.value()).get(0));
    // The creating event's item 100 bytes under the limit: the head row holds about as much in its snapshot
    // plus the 1,000-character index slot, which pushes it over.
    CounterId id = new CounterId(probe.value().replace('-', '_'));
    String name = "x".repeat(300_000 + (int) slack - 100);
    counters.create(new CounterCreated(id, name));

    assertEquals(1, skipped.size());
    Map<String, AttributeValue> head = headRow(id);
    assertEquals("0", head.get(JournalAttributes.SEQ_NR).n());
    assertFalse(head.containsKey(JournalAttributes.PAYLOAD));
    assertEquals(new Counter(id, name, 0, 0, ""), counters.load(id));
    counters.transact(id, c -> c.increment("small"));
    assertEquals(new Versioned<>(new Counter(id, name, 1, 0, ""), 2, 2), counters.loadVersioned(id));
  }


  private static Map<String, AttributeValue> headRow(CounterId id) {
    JournalKeys keys = new JournalKeys("big-head-counter", 4);
    return TestDynamo.client().getItem(b -> b
        .tableName("snapshot")
        .key(Map.of(
            JournalAttributes.PKEY, AttributeValue.fromS(keys.partitionKey(id.value())),
            JournalAttributes.SKEY, AttributeValue.fromS(keys.headSortKey(id.value()))))
        .consistentRead(true)).item();
  }

  private static List<CounterEvent> increments(int count) {
    List<CounterEvent> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      events.add(new Incremented(1));
    }
    return events;
  }
}
