package dev.esgen.runtime.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class StateCachePolicyTest {

  @Test
  void aMaxAgeBeyondAHundredYearsIsRefusedWhenThePolicyIsMade() {
    Duration forever = ChronoUnit.FOREVER.getDuration();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StateCachePolicy.of(10, forever));
    assertEquals("maxAge must be at most 36500 days, was " + forever, e.getMessage());
  }

  @Test
  void aStoreWithTheLongestMaxAgeRemembersWhatItWrote() {
    DynamoDbEventStore store = TestDynamo.store(
        StoreConfig.defaults().withStateCache(StateCachePolicy.of(10, Duration.ofDays(36_500))));
    CounterRepository counters = new CounterRepository(store);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "kept"));

    TestDynamo.requests().reset();
    assertEquals("kept", counters.load(id, ReadOptions.cachedWithin(Duration.ofMinutes(1))).name());
    assertEquals(0, TestDynamo.requests().total());
  }
}
