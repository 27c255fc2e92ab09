package dev.esgen.runtime.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** "Anything the cache holds" is a valid maxCachedAge: ReadOptions takes every non-negative Duration. */
class CachedWithinAnyAgeTest {

  @Test
  void theLongestDurationIsAValidMaxCachedAge() {
    CounterRepository counters = new CounterRepository(TestDynamo.store(
        StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(5)))));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    ReadOptions anyAge = ReadOptions.cachedWithin(ChronoUnit.FOREVER.getDuration());

    assertEquals("c", counters.load(id, anyAge).name());
    assertEquals(1, counters.findAll(List.of(id), anyAge).size());
  }
}
