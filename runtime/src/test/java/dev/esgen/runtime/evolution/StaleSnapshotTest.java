package dev.esgen.runtime.evolution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.Replay;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.codec.SnapshotCodec;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.StaleSnapshotException;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.RequestCounter;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.runtime.testing.TipItems;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A snapshot written by other code (another fingerprint) is never used: the state is folded from the
 * first event, the next append writes a fresh snapshot, and where the events are gone the load fails.
 * "Other code" here is the same counter with a handler that counted differently, so a test can tell a
 * state folded by the new handler from one read out of the old snapshot.
 */
class StaleSnapshotTest {

  private final DynamoDbEventStore store = TestDynamo.store();
  private final RequestCounter requests = TestDynamo.requests();

  /** The counter as released: increments count once, snapshots carry fingerprint "v1". */
  private CounterRepository oldCode(CounterLayout layout) {
    return counters(layout, "v1", CounterRepository.replay());
  }

  /** The counter after a handler fix: increments count ten times, snapshots carry fingerprint "v2". */
  private CounterRepository newCode(CounterLayout layout) {
    return counters(layout, "v2", CounterRepository.tenfoldReplay());
  }

  private CounterRepository counters(CounterLayout layout, String fingerprint, Replay<Counter, CounterEvent> replay) {
    var mapper = store.objectMapper();
    LayoutKind kind = layout == CounterLayout.JOURNAL ? LayoutKind.JOURNAL : LayoutKind.TIP;
    SnapshotCodec<Counter> plain =
        CounterRepository.definition(mapper, SnapshotPolicy.every(100)).snapshotCodec();
    AggregateDefinition<Counter, CounterId, CounterEvent> definition =
        CounterRepository.builder(CounterRepository.NAME, mapper, SnapshotPolicy.every(100), kind)
            .tipPolicy(new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 3, true))
            .snapshotCodec(new Fingerprinted(plain, fingerprint))
            .replay(replay)
            .build();
    return new CounterRepository(store, definition);
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aSnapshotOfOtherCodeIsIgnoredAndTheStateFoldedFromEveryEvent(CounterLayout layout) {
    CounterId id = CounterId.random();
    CounterRepository old = oldCode(layout);
    old.create(new CounterCreated(id, "c"));
    for (int i = 1; i <= 7; i++) {     // the tip calves every 3 events: batches are part of the rebuild
      old.append(id, i, new Incremented(1));
    }
    assertEquals(7, old.load(id).value());
    assertEquals("v1", storedFingerprint(layout, id));

    CounterRepository current = newCode(layout);
    assertEquals(70, current.load(id).value(), "folded by the new handler from event 1, not read from the snapshot");
    assertEquals(70, current.findAll(List.of(id)).get(id).value(), "batch loads ignore it too");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void theFirstAppendAfterwardsWritesAFreshSnapshotSoTheRebuildIsPaidOnce(CounterLayout layout) {
    CounterId id = CounterId.random();
    CounterRepository old = oldCode(layout);
    old.create(new CounterCreated(id, "c"));
    old.append(id, 1, new Incremented(1));

    CounterRepository current = newCode(layout);
    current.append(id, 2, new Incremented(1));     // far from the journal's 100-event snapshot interval
    assertEquals("v2", storedFingerprint(layout, id));
    assertEquals(20, snapshotValue(layout, id), "the snapshot holds the rebuilt state");

    requests.reset();
    assertEquals(20, current.load(id).value());
    assertEquals(Map.of("GetItem", 1), requests.snapshot(), "a current snapshot is one read again");
  }

  @Test
  void aJournalLoadReadsTheWholeStreamOnceWhileTheSnapshotIsStale() {
    CounterId id = CounterId.random();
    CounterRepository old = oldCode(CounterLayout.JOURNAL);
    old.create(new CounterCreated(id, "c"));
    requests.reset();
    assertEquals(0, old.load(id).value());
    assertEquals(Map.of("GetItem", 1), requests.snapshot());

    requests.reset();
    assertEquals(0, newCode(CounterLayout.JOURNAL).load(id).value());
    assertEquals(Map.of("GetItem", 1, "Query", 1), requests.snapshot());
  }

  @Test
  void aStaleJournalSnapshotWhoseEventsWereDeletedFailsTheLoad() {
    CounterId id = CounterId.random();
    CounterRepository old = oldCode(CounterLayout.JOURNAL);
    old.create(new CounterCreated(id, "c"));
    old.append(id, 1, new Incremented(1));
    JournalKeys keys = new JournalKeys(CounterRepository.NAME, 4);
    TestDynamo.client().deleteItem(b -> b.tableName("journal").key(Map.of(
        JournalAttributes.PKEY, AttributeValue.fromS(keys.partitionKey(id.value())),
        JournalAttributes.SKEY, AttributeValue.fromS(keys.sortKey(id.value(), 1)))));
    assertEquals(1, old.load(id).value(), "a current snapshot never needs the deleted event");

    StaleSnapshotException e = assertThrows(StaleSnapshotException.class, () -> newCode(CounterLayout.JOURNAL).load(id));
    assertEquals(1, e.snapshotSeqNr(), "the snapshot taken at creation");
    assertEquals(id.value(), e.aggregateId());
    assertTrue(e.getMessage().startsWith("the snapshot of counter " + id.value() + " at seq_nr 1 was written by"
        + " other code and cannot be rebuilt: "), e.getMessage());
    assertTrue(e.getCause() instanceof CorruptStreamException);
  }

  @Test
  void aStaleTipSnapshotWhoseCalvedBatchWasDeletedFailsTheLoad() {
    CounterId id = CounterId.random();
    CounterRepository old = oldCode(CounterLayout.TIP);
    old.create(new CounterCreated(id, "c"));
    for (int i = 1; i <= 4; i++) {
      old.append(id, i, new Incremented(1));
    }
    assertEquals(1, TipItems.batches(id.value()));
    Map<String, AttributeValue> batch = TipItems.of(id.value()).get(0);
    TestDynamo.client().deleteItem(b -> b.tableName("streams").key(Map.of(
        TipAttributes.STREAM, batch.get(TipAttributes.STREAM), TipAttributes.INDEX, batch.get(TipAttributes.INDEX))));
    assertEquals(4, old.load(id).value(), "a current snapshot never needs the deleted batch");

    StaleSnapshotException e = assertThrows(StaleSnapshotException.class, () -> newCode(CounterLayout.TIP).load(id));
    assertEquals(5, e.snapshotSeqNr());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aCodecWithoutFingerprintStoresNoneAndKeepsUsingSnapshotsStoredWithoutOne(CounterLayout layout) {
    CounterId id = CounterId.random();
    CounterRepository plain = layout.repository();
    plain.create(new CounterCreated(id, "c"));
    plain.append(id, 1, new Incremented(1));
    assertEquals(null, storedFingerprint(layout, id));
    AtomicInteger folds = new AtomicInteger();
    var definition = plain.definition();
    var watched = new CounterRepository(store, AggregateDefinition.<Counter, CounterId, CounterEvent>builder(
            definition.name(), Counter.class)
        .keys(definition.keys()).eventCodec(definition.eventCodec()).snapshotCodec(definition.snapshotCodec())
        .indexColumns(definition.indexColumns()).layout(definition.layout()).tipPolicy(definition.tipPolicy())
        .replay(counting(definition.replay(), folds))
        .build());
    assertEquals(1, watched.load(id).value());
    assertEquals(layout == CounterLayout.JOURNAL ? 1 : 0, folds.get(),
        "the journal's snapshot from creation plus one event; the tip's snapshot is current");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aSnapshotWithAFingerprintIsStaleForACodecWithoutOne(CounterLayout layout) {
    CounterId id = CounterId.random();
    oldCode(layout).create(new CounterCreated(id, "c"));
    oldCode(layout).append(id, 1, new Incremented(1));
    CounterRepository plain = layout.repository();
    plain.append(id, 2, new Incremented(1));
    assertEquals(null, storedFingerprint(layout, id), "the fresh snapshot leaves no fingerprint of other code");
    assertEquals(3, storedSnapshotSeqNr(layout, id));
  }

  // ---- helpers

  private static String storedFingerprint(CounterLayout layout, CounterId id) {
    AttributeValue stored = layout == CounterLayout.JOURNAL
        ? headRow(id).get(JournalAttributes.SNAPSHOT_SCHEMA)
        : tip(id).get(TipAttributes.UNFOLD).m().get(TipAttributes.SCHEMA);
    return stored == null ? null : stored.s();
  }

  private static long storedSnapshotSeqNr(CounterLayout layout, CounterId id) {
    return Long.parseLong(layout == CounterLayout.JOURNAL
        ? headRow(id).get(JournalAttributes.SEQ_NR).n()
        : tip(id).get(TipAttributes.UNFOLD).m().get(TipAttributes.INDEX).n());
  }

  private long snapshotValue(CounterLayout layout, CounterId id) {
    AttributeValue body = layout == CounterLayout.JOURNAL
        ? headRow(id).get(JournalAttributes.PAYLOAD)
        : tip(id).get(TipAttributes.UNFOLD).m().get(TipAttributes.DATA);
    try {
      return store.objectMapper().readTree(body.b().asByteArray()).get("value").asLong();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static Map<String, AttributeValue> headRow(CounterId id) {
    return TestDynamo.streamItems("snapshot", CounterRepository.NAME, id.value()).get(0);
  }

  private static Map<String, AttributeValue> tip(CounterId id) {
    List<Map<String, AttributeValue>> items = TipItems.of(id.value());
    return items.get(items.size() - 1);
  }

  private static Replay<Counter, CounterEvent> counting(Replay<Counter, CounterEvent> replay, AtomicInteger applied) {
    return new Replay<>() {
      @Override
      public Counter create(CounterEvent event) {
        applied.incrementAndGet();
        return replay.create(event);
      }

      @Override
      public Counter apply(Counter state, CounterEvent event) {
        applied.incrementAndGet();
        return replay.apply(state, event);
      }
    };
  }
}
