package dev.esgen.runtime.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Reading a stream's events back, page by page, on both layouts. */
class EventHistoryTest {

  private static final Instant NOW = Instant.parse("2026-11-23T10:15:30Z");

  enum Layout {
    JOURNAL,
    // Ten events per tip: a long stream is mostly in calved batches.
    TIP;

    CounterRepository repository() {
      return repository(StoreListener.NONE);
    }

    CounterRepository repository(StoreListener listener) {
      StoreConfig config = StoreConfig.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC)).withListener(listener);
      return this == JOURNAL
          ? new CounterRepository(TestDynamo.store(config))
          : new CounterRepository(TestDynamo.store(config), new TipPolicy(32 * 1024, 10, true));
    }
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aLongStreamComesBackInOrderPageByPage(Layout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    for (int k = 0; k < 25; k++) {
      int batch = k;
      counters.transact(id, c -> LongStream.range(0, 10).<CounterEvent>mapToObj(n -> new Incremented(1, batch + "-" + n))
          .toList());
    }

    List<RecordedEvent<CounterEvent>> events;
    TestDynamo.requests().reset();
    try (Stream<RecordedEvent<CounterEvent>> history = counters.events(id)) {
      events = history.toList();
    }

    assertEquals(251, events.size());
    assertEquals(LongStream.rangeClosed(1, 251).boxed().toList(), events.stream().map(RecordedEvent::seqNr).toList());
    assertEquals(new RecordedEvent<CounterEvent>(CounterRepository.NAME, id.value(), 1, "counter-created", NOW, EventMetadata.none(),
        new CounterCreated(id, "c")), events.get(0));
    assertEquals(new Incremented(1, "24-9"), events.get(250).event());
    assertEquals("incremented", events.get(250).eventType());
    // Three pages of at most 100 events, each starting with a read of the head row or the tip.
    assertEquals(3, TestDynamo.requests().of("GetItem"));
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aHistoryCanStartAnywhereAndEndsWhereTheStreamEndedWhenItWasAskedFor(Layout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    for (int k = 0; k < 30; k++) {
      counters.transact(id, c -> c.increment("x"));
    }

    List<Long> fromTwelve = counters.events(id, 12).map(RecordedEvent::seqNr).toList();
    Iterator<RecordedEvent<CounterEvent>> consuming = counters.events(id, 30).iterator();
    counters.transact(id, c -> c.increment("later"));
    List<Long> seen = new ArrayList<>();
    consuming.forEachRemaining(e -> seen.add(e.seqNr()));

    assertEquals(LongStream.rangeClosed(12, 31).boxed().toList(), fromTwelve);
    assertEquals(List.of(30L, 31L), seen, "the append made while reading is not part of this history");
    assertEquals(List.of(), counters.events(id, 40).toList());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aMissingStreamOrAnImpossibleStartIsRefused(Layout layout) {
    CounterRepository counters = layout.repository();

    assertThrows(AggregateNotFoundException.class, () -> counters.events(CounterId.random()));
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> counters.events(CounterId.random(), 0));
    assertEquals("counter: seq_nrs start at 1, fromSeqNr was 0", zero.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void theHistoryOfAMissingStreamIsAFailedOperationAsItsLoadIs(Layout layout) {
    RecordingListener heard = new RecordingListener();
    CounterRepository counters = layout.repository(heard);
    CounterId missing = CounterId.random();

    assertThrows(AggregateNotFoundException.class, () -> counters.load(missing));
    AggregateNotFoundException notFound =
        assertThrows(AggregateNotFoundException.class, () -> counters.events(missing));

    List<OperationMetrics> operations = heard.operations();
    assertEquals(List.of("load", "events"), operations.stream().map(OperationMetrics::operation).toList());
    assertSame(notFound, operations.get(1).failure().orElseThrow(),
        "a dashboard counting failed reads must see the history's as it sees the load's");
  }
}
