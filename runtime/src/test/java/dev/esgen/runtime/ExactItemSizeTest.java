package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.MutableClock;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.runtime.testing.TipItems;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * esgen measures the item an update leaves, not only what the update names: DynamoDB limits the whole
 * item, and an {@code UpdateItem} keeps every attribute it does not name. Each test calibrates a stream on
 * a probe of the same shape, then drives another to exactly 409,600 bytes, which DynamoDB Local must
 * accept, and one to 409,601, which esgen must skip or refuse itself, before sending anything.
 *
 * <p>The store's clock stands still so that every timestamp, and with it every item, has the same size
 * in the probe and in the stream measured against it.
 */
class ExactItemSizeTest {

  private static final long LIMIT = ItemTooLargeException.LIMIT_BYTES;

  private final RecordingListener heard = new RecordingListener();
  private final List<SkippedSnapshot> skipped = heard.skippedSnapshots();
  private final DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults()
      .withClock(new MutableClock(Instant.parse("2026-03-04T05:06:07.890Z")))
      .withListener(heard));

  @Test
  void onTheJournalTheListOfKeptSnapshotsCountsWhenASnapshotIsDecided() {
    String name = "kept-list-counter";
    CounterRepository counters = new CounterRepository(store,
        CounterRepository.builder(name, store.objectMapper(), SnapshotPolicy.every(1).keeping(2)).build());
    CounterId probe = CounterId.random();
    createNoteTwice(counters, probe, "x".repeat(300_000));
    long probeSize = ItemSize.of(headRow(name, probe));
    String atTheLimit = "x".repeat(300_000 + (int) (LIMIT - probeSize));
    CounterId fits = CounterId.random();
    CounterId over = CounterId.random();

    createNoteTwice(counters, fits, atTheLimit);
    Versioned<Counter> stored = createNoteTwice(counters, over, atTheLimit + "x");

    Map<String, AttributeValue> fitting = headRow(name, fits);
    assertEquals(LIMIT, ItemSize.of(fitting), "DynamoDB stored a head row of exactly 409,600 bytes");
    assertEquals("3", fitting.get(JournalAttributes.SEQ_NR).n());
    assertEquals(List.of("2", "3"), fitting.get(JournalAttributes.RETAINED_SEQ_NRS).l().stream()
        .map(AttributeValue::n).toList());
    assertEquals(List.of(new SkippedSnapshot(name, over.value(), 3, LIMIT + 1, LIMIT)), skipped);
    Map<String, AttributeValue> kept = headRow(name, over);
    assertEquals("2", kept.get(JournalAttributes.SEQ_NR).n(), "the older snapshot stays");
    assertEquals("3", kept.get(JournalAttributes.LAST_SEQ_NR).n());
    assertEquals(new Versioned<>(new Counter(over, atTheLimit + "x", 0, 2, "b".repeat(32)), 3, 3), stored);
    assertEquals(stored, counters.loadVersioned(over));
  }

  @Test
  void onTheJournalAnOlderSnapshotThatNoLongerFitsBesideAGrownIndexValueGoes() {
    String name = "grown-index-value-counter";
    CounterRepository counters = new CounterRepository(store,
        CounterRepository.builder(name, store.objectMapper(), SnapshotPolicy.every(2))
            .indexColumns(new LastNoteColumn())
            .build());
    CounterId probe = CounterId.random();
    createAndNote(counters, probe, "x".repeat(300_000));
    long probeSize = ItemSize.of(headRow(name, probe));
    // A head row 10 bytes under the limit, with a snapshot at seq_nr 3 and a one-character index value.
    String large = "x".repeat(300_000 + (int) (LIMIT - 10 - probeSize));
    CounterId id = CounterId.random();
    createAndNote(counters, id, large);
    assertEquals(LIMIT - 10, ItemSize.of(headRow(name, id)));
    assertEquals(List.of(), skipped);

    // No snapshot is due at seq_nr 4, but the index value grows by 63 bytes beside the older snapshot.
    Versioned<Counter> noted = counters.append(id, 3, new Noted("z".repeat(64)));

    Map<String, AttributeValue> head = headRow(name, id);
    assertFalse(head.containsKey(JournalAttributes.PAYLOAD), "the older snapshot went");
    assertEquals("0", head.get(JournalAttributes.SEQ_NR).n());
    assertEquals("4", head.get(JournalAttributes.LAST_SEQ_NR).n());
    assertEquals(name + "#lastNote#" + "z".repeat(64), head.get("ix0_pk").s());
    assertEquals(List.of(), skipped, "no snapshot was due");
    assertEquals(new Versioned<>(new Counter(id, large, 0, 3, "z".repeat(64)), 4, 4), noted);
    assertEquals(noted, counters.loadVersioned(id), "folded from the first event");

    Versioned<Counter> next = counters.transact(id, counter -> counter.increment("one"));

    assertEquals(List.of(5L), skipped.stream().map(SkippedSnapshot::seqNr).toList(),
        "the snapshot due next does not fit either");
    assertEquals(new Versioned<>(new Counter(id, large, 1, 3, "z".repeat(64)), 5, 5), next);
    assertEquals(next, counters.loadVersioned(id));
  }

  @Test
  void onTheTipASnapshotThatDoesNotFitTakesTheOlderOneWithIt() {
    // Every append calves (at most one event in the tip), so that what does not fit is the new event
    // beside the snapshot: events held before would be calved first.
    CounterRepository counters = new CounterRepository(store, new TipPolicy(409_600, 1, true));
    String name = "x".repeat(150_000);
    int atTheLimit = noteFillingTheTip(counters, name);
    CounterId fits = CounterId.random();
    CounterId over = CounterId.random();
    counters.create(new CounterCreated(fits, name));
    counters.create(new CounterCreated(over, name));

    counters.append(fits, 1, new Noted("n".repeat(atTheLimit)));
    Versioned<Counter> stored = counters.append(over, 1, new Noted("n".repeat(atTheLimit + 1)));

    Map<String, AttributeValue> fitting = tip(fits);
    assertEquals(LIMIT, ItemSize.of(fitting), "DynamoDB stored a tip of exactly 409,600 bytes");
    assertEquals("2", fitting.get(TipAttributes.UNFOLD).m().get(TipAttributes.INDEX).n());
    assertEquals(List.of(new SkippedSnapshot(CounterRepository.NAME, over.value(), 2, LIMIT + 1, LIMIT)), skipped);
    assertFalse(tip(over).containsKey(TipAttributes.UNFOLD),
        "the snapshot taken at creation went with the one that did not fit");
    assertEquals(new Versioned<>(new Counter(over, name, 0, 1, ""), 2, 2), stored);
    assertEquals(stored, counters.loadVersioned(over), "folded from the first event");
  }

  @Test
  void onTheTipEventsHeldAlreadyAreCalvedWhenTheItemWouldPassTheLimitAndEventsThatDoNotFitAloneAreRefused() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(409_600, 0, false));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "x".repeat(150_000)));
    counters.append(id, 1, new Noted("n".repeat(200_000)));
    long before = ItemSize.of(tip(id));
    counters.append(id, 2, new Noted("m".repeat(100)));
    long after = ItemSize.of(tip(id));
    // A note that takes the tip of events 1 to 4 one byte past the limit, though its events alone stay
    // under the policy's 409,600 bytes: the events held go to a batch item instead of the append failing.
    int over = (int) (100 + LIMIT + 1 - after - (after - before));
    Versioned<Counter> calved = counters.append(id, 3, new Noted("o".repeat(over)));
    assertEquals(1, tip(id).get(TipAttributes.EVENTS).l().size(), "the tip holds the new event alone");
    assertEquals(calved, counters.loadVersioned(id));
    assertEquals(4, counters.events(id).count(), "events 1 to 3 in a batch, 4 in the tip");

    // A note whose tip, alone, is one byte past the limit is refused before anything is sent.
    long alone = ItemSize.of(tip(id));
    int tooLarge = (int) (over + LIMIT + 1 - alone);
    TestDynamo.requests().reset();
    ItemTooLargeException e = assertThrows(ItemTooLargeException.class,
        () -> counters.append(id, 4, new Noted("p".repeat(tooLarge))));
    assertEquals("tip with events 5 to 5", e.item());
    assertEquals(LIMIT + 1, e.sizeBytes());
    assertEquals(0, TestDynamo.requests().of("UpdateItem") + TestDynamo.requests().of("TransactWriteItems"),
        "nothing was sent");
    assertEquals(4, counters.loadVersioned(id).version());
    Versioned<Counter> stored = counters.append(id, 4, new Noted("p".repeat(tooLarge - 1)));
    assertEquals(LIMIT, ItemSize.of(tip(id)), "DynamoDB stored a tip of exactly 409,600 bytes");
    assertEquals(stored, counters.loadVersioned(id));
  }

  @Test
  void onTheTipEventsOfExactlyTipMaxBytesStayAndOneByteMoreCalves() {
    // Measured on a tip that never calves: a created counter and a 100-character note.
    CounterId probe = CounterId.random();
    CounterRepository measuring = new CounterRepository(store, new TipPolicy(409_600, 0, true));
    measuring.create(new CounterCreated(probe, "c"));
    measuring.append(probe, 1, new Noted("n".repeat(100)));
    List<AttributeValue> events = tip(probe).get(TipAttributes.EVENTS).l();
    List<AttributeValue> cases = tip(probe).get(TipAttributes.CASES).l();
    int both = (int) (ItemSize.ofList(TipAttributes.EVENTS, events) + ItemSize.ofList(TipAttributes.CASES, cases));
    int noteAlone = (int) (ItemSize.ofList(TipAttributes.EVENTS, events.subList(1, 2))
        + ItemSize.ofList(TipAttributes.CASES, cases.subList(1, 2)));
    CounterRepository counters = new CounterRepository(store, new TipPolicy(both, 0, true));

    CounterId exactly = CounterId.random();
    counters.create(new CounterCreated(exactly, "c"));
    counters.append(exactly, 1, new Noted("n".repeat(100)));
    assertEquals(List.of(2), eventsPerItem(exactly), "events of exactly tipMaxBytes stay in the tip");

    CounterId oneMore = CounterId.random();
    counters.create(new CounterCreated(oneMore, "c"));
    counters.append(oneMore, 1, new Noted("n".repeat(101)));
    assertEquals(List.of(1, 1), eventsPerItem(oneMore), "one byte more calves the tip's event");

    // A note of exactly tipMaxBytes on its own is kept in the tip; one byte more goes straight to the batch.
    int filling = 100 + both - noteAlone;
    CounterId alone = CounterId.random();
    counters.create(new CounterCreated(alone, "c"));
    counters.append(alone, 1, new Noted("n".repeat(filling)));
    assertEquals(List.of(1, 1), eventsPerItem(alone));
    CounterId past = CounterId.random();
    counters.create(new CounterCreated(past, "c"));
    Versioned<Counter> stored = counters.append(past, 1, new Noted("n".repeat(filling + 1)));
    assertEquals(List.of(2, 0), eventsPerItem(past));
    assertEquals(stored, counters.loadVersioned(past));
  }

  /** How many events each item of the counter stream {@code id} holds: its batches, then the tip. */
  private static List<Integer> eventsPerItem(CounterId id) {
    return TipItems.of(id.value()).stream().map(item -> item.get(TipAttributes.EVENTS).l().size()).toList();
  }

  @Test
  void onTheTipAnEventThatFillsABatchItemAloneIsStoredWhateverTheTipHolds() {
    CounterRepository counters = new CounterRepository(store, TipPolicy.defaults());
    // Calibrated on a stream whose tip holds no events: its note goes to a batch item of its own.
    CounterId probe = CounterId.random();
    counters.create(new CounterCreated(probe, "c"));
    counters.append(probe, 1, new Noted("n".repeat(3_000)));
    counters.append(probe, 2, new Noted("n".repeat(3_000)));
    int filling = 3_000 + (int) (LIMIT - ItemSize.of(TipItems.of(probe.value()).get(1)));
    Noted note = new Noted("n".repeat(filling));

    // Right after creation the tip holds the creating event: with it, the note is past the limit in a
    // batch and, beside the tip's own attributes, in the tip. It was refused; it goes to a batch item
    // of its own, the creating event to one before it.
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    Versioned<Counter> stored = counters.append(id, 1, note);

    List<Map<String, AttributeValue>> items = TipItems.of(id.value());
    assertEquals(3, items.size(), "two batches and the tip");
    assertEquals(List.of("0", "1"), List.of(items.get(0).get(TipAttributes.INDEX).n(), items.get(1).get(TipAttributes.INDEX).n()));
    assertEquals(1, items.get(0).get(TipAttributes.EVENTS).l().size());
    assertEquals(LIMIT, ItemSize.of(items.get(1)), "DynamoDB stored a batch of exactly 409,600 bytes");
    assertEquals(List.of(), tip(id).get(TipAttributes.EVENTS).l());
    assertEquals("1", tip(id).get(TipAttributes.APPENDED).n());
    assertEquals(List.of(new CounterCreated(id, "c"), note), TipItems.events(counters, id.value()));
    assertEquals(stored, counters.loadVersioned(id));
    assertEquals(List.of(1L, 2L), counters.events(id).map(e -> e.seqNr()).toList());

    // One byte more fits no item: refused before anything is sent.
    CounterId other = CounterId.random();
    counters.create(new CounterCreated(other, "c"));
    TestDynamo.requests().reset();
    assertThrows(ItemTooLargeException.class, () -> counters.append(other, 1, new Noted("n".repeat(filling + 1))));
    assertEquals(0, TestDynamo.requests().of("UpdateItem") + TestDynamo.requests().of("TransactWriteItems"),
        "nothing was sent");
    assertEquals(1, TipItems.of(other.value()).size());
  }

  @Test
  void aSnapshotSkippedIsReportedOnlyForAnAppendThatWasStored() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(409_600, 1, true));
    String name = "x".repeat(150_000);
    int atTheLimit = noteFillingTheTip(counters, name);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, name));
    Versioned<Counter> stale = counters.loadVersioned(id);
    counters.append(id, 1, new Noted("another writer"));

    assertThrows(VersionConflictException.class,
        () -> counters.append(stale, List.of(new Noted("n".repeat(atTheLimit + 1)))));

    assertEquals(List.of(), skipped, "the append whose snapshot would not fit was refused: nothing was skipped");
  }

  /**
   * The length of a note that fills a tip holding it alone beside the snapshot of a counter named
   * {@code name} to exactly the item limit, measured on a counter of its own.
   */
  private static int noteFillingTheTip(CounterRepository counters, String name) {
    CounterId probe = CounterId.random();
    counters.create(new CounterCreated(probe, name));
    counters.append(probe, 1, new Noted("n".repeat(100)));
    return 100 + (int) (LIMIT - ItemSize.of(tip(probe)));
  }

  /**
   * Creates the counter, then notes a 64-character and a one-character note: with a snapshot every 2
   * events, one is taken at seq_nr 1 and 3, the index value of the last note is one character.
   */
  private static void createAndNote(CounterRepository counters, CounterId id, String name) {
    counters.create(new CounterCreated(id, name));
    counters.append(id, 1, new Noted("b".repeat(64)));
    counters.append(id, 2, new Noted("c"));
  }

  /** Creates the counter, then notes twice: three head-row updates, the last with two kept snapshots. */
  private static Versioned<Counter> createNoteTwice(CounterRepository counters, CounterId id, String name) {
    counters.create(new CounterCreated(id, name));
    counters.append(id, 1, new Noted("a"));
    return counters.append(id, 2, new Noted("b".repeat(32)));
  }

  private static Map<String, AttributeValue> headRow(String aggregate, CounterId id) {
    JournalKeys keys = new JournalKeys(aggregate, 4);
    return TestDynamo.client().getItem(b -> b
        .tableName("snapshot")
        .key(Map.of(
            JournalAttributes.PKEY, AttributeValue.fromS(keys.partitionKey(id.value())),
            JournalAttributes.SKEY, AttributeValue.fromS(keys.headSortKey(id.value()))))
        .consistentRead(true)).item();
  }

  private static Map<String, AttributeValue> tip(CounterId id) {
    List<Map<String, AttributeValue>> items = TipItems.of(id.value());
    return items.get(items.size() - 1);
  }


  /** Indexes the counter's last note (up to 64 characters); none while it has none. */
  private static final class LastNoteColumn implements IndexColumns<Counter> {
    @Override
    public List<IndexColumn> columns() {
      return List.of(IndexColumn.indexed("lastNote"));
    }

    @Override
    public Map<String, String> values(Counter state) {
      return state.lastNote().isEmpty() ? Map.of() : Map.of("lastNote", state.lastNote());
    }
  }
}
