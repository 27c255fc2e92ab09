package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  @Test
  void delaysAreFullJitterUnderADoublingCappedBound() {
    RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(10), Duration.ofSeconds(1));
    SplittableRandom random = new SplittableRandom(7);
    long maxSeenAfterFirst = 0;
    for (int i = 0; i < 2_000; i++) {
      Duration first = policy.delayAfter(1, random);
      assertTrue(!first.isNegative() && first.compareTo(Duration.ofMillis(20)) <= 0, first.toString());
      maxSeenAfterFirst = Math.max(maxSeenAfterFirst, first.toNanos());
      Duration late = policy.delayAfter(30, random);
      assertTrue(late.compareTo(Duration.ofSeconds(1)) <= 0, late.toString());
      assertTrue(policy.delayAfter(1_000, random).compareTo(Duration.ofSeconds(1)) <= 0);
    }
    assertTrue(maxSeenAfterFirst > Duration.ofMillis(15).toNanos(), "jitter spans the bound");
  }

  @Test
  void conflictDelaysAreDecorrelatedJitterFromTheBaseToThreeTimesThePreviousUnderTheCap() {
    RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(10), Duration.ofMillis(100));
    SplittableRandom random = new SplittableRandom(11);
    long maxAfterTwenty = 0;
    for (int i = 0; i < 2_000; i++) {
      Duration first = policy.delayAfterConflict(Duration.ZERO, random);
      assertTrue(first.compareTo(Duration.ofMillis(10)) >= 0 && first.compareTo(Duration.ofMillis(30)) <= 0,
          first.toString());
      Duration afterTwenty = policy.delayAfterConflict(Duration.ofMillis(20), random);
      assertTrue(afterTwenty.compareTo(Duration.ofMillis(10)) >= 0 && afterTwenty.compareTo(Duration.ofMillis(60)) <= 0,
          afterTwenty.toString());
      maxAfterTwenty = Math.max(maxAfterTwenty, afterTwenty.toNanos());
      Duration capped = policy.delayAfterConflict(Duration.ofSeconds(5), random);
      assertTrue(capped.compareTo(Duration.ofMillis(100)) <= 0, capped.toString());
    }
    assertTrue(maxAfterTwenty > Duration.ofMillis(50).toNanos(), "jitter spans up to three times the previous");
    assertEquals(Duration.ZERO, RetryPolicy.noRetries().delayAfterConflict(Duration.ZERO, random));
  }

  @Test
  void aConflictDelayWithAShorterCapStaysUnderItAndALongerCapDoesNotExtendTheMaximum() {
    RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(10), Duration.ofMillis(100));
    SplittableRandom random = new SplittableRandom(23);
    for (int i = 0; i < 2_000; i++) {
      Duration capped = policy.delayAfterConflict(Duration.ofMillis(40), Duration.ofMillis(30), random);
      assertTrue(capped.compareTo(Duration.ofMillis(10)) >= 0 && capped.compareTo(Duration.ofMillis(30)) <= 0,
          capped.toString());
      Duration wide = policy.delayAfterConflict(Duration.ofSeconds(5), Duration.ofSeconds(10), random);
      assertTrue(wide.compareTo(Duration.ofMillis(100)) <= 0, wide.toString());
    }
    assertEquals(Duration.ofMillis(5), policy.delayAfterConflict(Duration.ZERO, Duration.ofMillis(5), random),
        "a cap below the base delay is the wait");
  }

  @Test
  void delaysAndDeadlinesBeyondAYearAreRefusedWhenThePolicyIsMade() {
    Duration forever = ChronoUnit.FOREVER.getDuration();
    IllegalArgumentException deadline = assertThrows(IllegalArgumentException.class,
        () -> RetryPolicy.defaults().withDeadline(forever));
    assertEquals("deadline must be at most 365 days, was " + forever, deadline.getMessage());
    IllegalArgumentException maxDelay = assertThrows(IllegalArgumentException.class,
        () -> new RetryPolicy(3, Duration.ofMillis(1), Duration.ofDays(36_500)));
    assertTrue(maxDelay.getMessage().startsWith("maxDelay must be at most 365 days"), maxDelay.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, Duration.ofDays(366), Duration.ofDays(1)));
  }

  @Test
  void aStoreWithTheLongestDelaysAndDeadlineAppends() {
    RetryPolicy longest = new RetryPolicy(3, RetryPolicy.MAX_DURATION, RetryPolicy.MAX_DURATION, RetryPolicy.MAX_DURATION);
    CounterRepository counters = new CounterRepository(TestDynamo.store(StoreConfig.defaults().withRetryPolicy(longest)));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "patient"));
    assertEquals(2, counters.transact(id, counter -> List.of(new Incremented(1))).version());
  }

  @Test
  void defaultsAndValidation() {
    assertEquals(new RetryPolicy(20, Duration.ofMillis(10), Duration.ofMillis(500)), RetryPolicy.defaults());
    assertEquals(Duration.ZERO, RetryPolicy.noRetries().delayAfter(1, new SplittableRandom(1)));
    assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO));
  }
}
