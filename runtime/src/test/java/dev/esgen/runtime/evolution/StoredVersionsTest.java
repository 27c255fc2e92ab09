package dev.esgen.runtime.evolution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.runtime.testing.TipItems;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the layouts do with event versions and with codecs whose upcasters turn one stored event into
 * several or none, with a hand-written codec standing in for a generated one. The counter as released
 * ("old code") writes the streams; the evolved counter reads them: its incremented events are written at
 * version 2, a stored note reading "split" stands for two increments now and one reading "drop" for
 * nothing, and its snapshots carry a fingerprint, so the old snapshots are stale and every event is read.
 */
class StoredVersionsTest {

  private final DynamoDbEventStore store = TestDynamo.store();

  private CounterRepository oldCode(CounterLayout layout) {
    return counters(layout, CounterRepository.definition(store.objectMapper(), SnapshotPolicy.every(100)).eventCodec(),
        "");
  }

  private CounterRepository newCode(CounterLayout layout, EvolvedEvents codec) {
    return counters(layout, codec, "evolved");
  }

  private CounterRepository counters(CounterLayout layout, EventCodec<CounterEvent> codec, String fingerprint) {
    LayoutKind kind = layout == CounterLayout.JOURNAL ? LayoutKind.JOURNAL : LayoutKind.TIP;
    AggregateDefinition.Builder<Counter, CounterId, CounterEvent> builder =
        CounterRepository.builder(CounterRepository.NAME, store.objectMapper(), SnapshotPolicy.every(100), kind);
    AggregateDefinition<Counter, CounterId, CounterEvent> plain = builder.build();
    AggregateDefinition<Counter, CounterId, CounterEvent> definition = builder
        .tipPolicy(new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 2, true))        // calving every 2 events
        .eventCodec(codec)
        .snapshotCodec(new Fingerprinted(plain.snapshotCodec(), fingerprint))
        .build();
    return new CounterRepository(store, definition);
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anEventAboveVersionOneStoresItsVersionAndOneAtVersionOneStoresNothing(CounterLayout layout) {
    EvolvedEvents codec = new EvolvedEvents(store);
    CounterRepository counters = newCode(layout, codec);
    CounterId id = CounterId.random();
    counters.create(List.of(new CounterCreated(id, "c"), new Incremented(3), new Noted("n")));

    List<Map<String, AttributeValue>> stored = storedEvents(layout, id);
    String name = layout == CounterLayout.JOURNAL ? JournalAttributes.EVENT_VERSION : TipAttributes.EVENT_VERSION;
    assertFalse(stored.get(0).containsKey(name), "counter-created is at version 1");
    assertEquals(AttributeValue.fromN("2"), stored.get(1).get(name));
    assertFalse(stored.get(2).containsKey(name), "noted is at version 1");

    codec.read.clear();
    try (Stream<RecordedEvent<CounterEvent>> history = counters.events(id)) {
      assertEquals(3, history.count());
    }
    assertEquals(List.of("counter-created@1", "incremented@2", "noted@1"), codec.read,
        "the codec is told each stored version; on the tip two of them come from a calved batch");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aStoredEventThatStandsForSeveralFoldsThemAllAndTheyShareItsSeqNr(CounterLayout layout) {
    CounterId id = CounterId.random();
    oldCode(layout).create(List.of(new CounterCreated(id, "c"), new Noted("split"), new Incremented(5),
        new Noted("drop"), new Noted("kept")));
    CounterRepository counters = newCode(layout, new EvolvedEvents(store));

    Counter counter = counters.load(id);
    assertEquals(1 + 1 + 5, counter.value(), "the split note stands for two increments of 1");
    assertEquals(1, counter.notes(), "the dropped note is gone, the split one became increments");
    assertEquals(5, counters.loadVersioned(id).seqNr(), "seq_nrs count stored events");
    try (Stream<RecordedEvent<CounterEvent>> history = counters.events(id)) {
      assertEquals(List.of("1 counter-created", "2 incremented", "2 incremented", "3 incremented", "5 noted"),
          history.map(e -> e.seqNr() + " " + e.eventType()).toList());
    }
    counters.append(id, 1, new Incremented(1));
    assertEquals(6, counters.loadVersioned(id).seqNr(), "appends go on after the last stored event");
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void theHistoryPagesByStoredSeqNrsSoPagesOfDroppedOrSplitEventsLoseNothing(CounterLayout layout) {
    CounterRepository old = oldCode(layout);
    CounterId id = CounterId.random();
    old.create(new CounterCreated(id, "c"));
    long version = 1;
    for (String text : List.of("drop", "split")) {
      for (int append = 0; append < 3; append++) {          // 150 events of each kind, 50 per append
        old.append(id, version++, Collections.nCopies(50, new Noted(text)));
      }
    }
    CounterRepository counters = newCode(layout, new EvolvedEvents(store));
    try (Stream<RecordedEvent<CounterEvent>> history = counters.events(id)) {
      List<RecordedEvent<CounterEvent>> events = history.toList();
      assertEquals(1 + 300, events.size(), "the creation, then two increments for each of 150 split notes");
      assertEquals(152, events.get(1).seqNr(), "the first 100 seq_nrs stand for the creation alone");
      assertEquals(301, events.get(300).seqNr());
    }
    assertEquals(300, counters.load(id).value());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anUnreadableVersionNamesTheStoredTypeAndVersion(CounterLayout layout) {
    CounterId id = CounterId.random();
    newCode(layout, new EvolvedEvents(store)).create(List.of(new CounterCreated(id, "c"), new Incremented(1)));
    CounterRepository old = oldCode(layout);
    EventDecodingException e = assertThrows(EventDecodingException.class, () -> old.events(id).count());
    assertEquals(2, e.seqNr());
    assertEquals(2, e.eventVersion());
    assertTrue(e.getMessage().startsWith("cannot decode event 2 (type 'incremented', version 2) of counter "),
        e.getMessage());
  }

  private static List<Map<String, AttributeValue>> storedEvents(CounterLayout layout, CounterId id) {
    if (layout == CounterLayout.JOURNAL) {
      return TestDynamo.streamItems("journal", CounterRepository.NAME, id.value());
    }
    List<Map<String, AttributeValue>> events = new ArrayList<>();
    for (Map<String, AttributeValue> item : TipItems.of(id.value())) {
      item.get(TipAttributes.EVENTS).l().forEach(event -> events.add(event.m()));
    }
    return events;
  }

  /** The counter's codec after an evolution, recording the stored type and version of each read. */
  private static final class EvolvedEvents implements EventCodec<CounterEvent> {
    private final EventCodec<CounterEvent> plain;
    private final List<String> read = Collections.synchronizedList(new ArrayList<>());

    EvolvedEvents(DynamoDbEventStore store) {
      this.plain = CounterRepository.definition(store.objectMapper(), SnapshotPolicy.every(100)).eventCodec();
    }

    @Override
    public String typeName(CounterEvent event) {
      return plain.typeName(event);
    }

    @Override
    public int version(CounterEvent event) {
      return event instanceof Incremented ? 2 : 1;
    }

    @Override
    public byte[] encode(CounterEvent event) throws IOException {
      return plain.encode(event);
    }

    @Override
    public CounterEvent decode(String typeName, byte[] body) throws IOException {
      return plain.decode(typeName, body);
    }

    @Override
    public List<CounterEvent> decodeStored(String typeName, int version, byte[] body) throws IOException {
      read.add(typeName + "@" + version);
      CounterEvent event = plain.decode(typeName, body);
      if (event instanceof Noted noted && noted.text().equals("split")) {
        return List.of(new Incremented(1), new Incremented(1));
      }
      return event instanceof Noted noted && noted.text().equals("drop") ? List.of() : List.of(event);
    }
  }

}
