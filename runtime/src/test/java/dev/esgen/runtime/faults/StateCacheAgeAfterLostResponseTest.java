package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.MutableClock;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An append whose response was lost is settled later (a resend with its token, or reading back), and
 * another process may append meanwhile: the state it wrote is as old as the write, not as the moment it
 * was settled, so a load accepting a cached state of a given age does not get it once that age has passed.
 */
class StateCacheAgeAfterLostResponseTest {

  @ParameterizedTest
  @EnumSource(value = Layout.class, names = {"JOURNAL", "TIP"})
  void aStateSettledLateIsAsOldAsItsWrite(Layout layout) {
    MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    FaultInjector faults = FaultInjector.builder(11).build();
    DynamoDbEventStore store = DynamoDbEventStore.create(FaultyDynamo.clientWithoutSdkRetries(faults),
        StoreConfig.defaults()
            .withClock(clock)
            .withRetryPolicy(new RetryPolicy(5, Duration.ofMillis(1), Duration.ofMillis(5)))
            .withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(5))));
    CounterRepository counters = layout.counters(store);
    CounterRepository otherProcess = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    // The append is applied and its response lost; before it is settled another process appends, and 10
    // minutes pass on the store's clock (in a real run, up to the retry policy's deadline).
    faults.onLostResponse(request -> {
      otherProcess.transact(id, c -> c.increment("other"));
      clock.advance(Duration.ofMinutes(10));
    });
    faults.enqueue(layout.appendRequest(false), Fault.LOST_RESPONSE_AFTER_OTHERS);

    Versioned<Counter> mine = counters.transact(id, c -> c.increment("mine"));

    assertEquals(2, mine.version(), "settled after the lost response");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(3, counters.loadVersioned(id, ReadOptions.cachedWithin(Duration.ofMinutes(1))).version(),
        "version 2 was written 10 minutes ago: a load accepting a minute reads the stream");
  }
}
