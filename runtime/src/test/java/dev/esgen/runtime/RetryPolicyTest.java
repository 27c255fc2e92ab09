package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.RetryPolicy;
import java.time.Duration;
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
  void defaultsAndValidation() {
    assertEquals(new RetryPolicy(20, Duration.ofMillis(10), Duration.ofMillis(500)), RetryPolicy.defaults());
    assertEquals(Duration.ZERO, RetryPolicy.noRetries().delayAfter(1, new SplittableRandom(1)));
    assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO));
  }
}
