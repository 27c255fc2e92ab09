package dev.esgen.runtime.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.testing.CounterLayout;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A history asked to start past the stream's end is empty, however far past. */
class HistoryBoundsTest {

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aStartFarPastTheEndGivesAnEmptyHistory(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> c.increment("x"));

    assertEquals(List.<RecordedEvent<CounterEvent>>of(), counters.events(id, 1_000).toList());
    // fromSeqNr + page size overflows a long here
    assertEquals(List.<RecordedEvent<CounterEvent>>of(), counters.events(id, Long.MAX_VALUE - 10).toList());
    assertEquals(List.<RecordedEvent<CounterEvent>>of(), counters.events(id, Long.MAX_VALUE).toList());
  }
}
