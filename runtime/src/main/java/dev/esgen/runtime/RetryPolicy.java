package dev.esgen.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How {@code transact} retries after a concurrent modification: how many attempts in all and how long
 * to wait between them.
 *
 * <p>The wait is exponential backoff with full jitter: after the {@code n}-th failed attempt the writer
 * sleeps a uniformly random time between 0 and {@code min(maxDelay, baseDelay * 2^n)}. Retrying at once
 * lets the same writers collide again and again on a hot aggregate; spreading them out randomly lets
 * one of them through each round.
 *
 * <pre>{@code
 * RetryPolicy policy = RetryPolicy.defaults();                     // 20 attempts, 10 ms base, 500 ms cap
 * RetryPolicy patient = new RetryPolicy(40, Duration.ofMillis(5), Duration.ofMillis(500));
 * StoreConfig config = StoreConfig.defaults().withRetryPolicy(patient);
 * }</pre>
 *
 * @param maxAttempts attempts in all, the first included (at least 1; 1 means no retry)
 * @param baseDelay the bound of the first wait before doubling
 * @param maxDelay the largest bound any wait may have
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    Objects.requireNonNull(baseDelay, "baseDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (baseDelay.isNegative() || maxDelay.isNegative()) {
      throw new IllegalArgumentException("delays must not be negative: " + baseDelay + ", " + maxDelay);
    }
  }

  /**
   * 20 attempts, waits bounded by 10 ms doubling up to 500 ms. Measured with four writers hammering one
   * aggregate on a loaded 2-core machine, 10 attempts with a 1 s cap let about one command in 400 give up;
   * a lower cap keeps a writer that lost several times from waiting far longer than the fresh writers it
   * competes with, and twice the attempts leave room for bad luck (at most about 7.6 s of waiting).
   */
  public static RetryPolicy defaults() {
    return new RetryPolicy(20, Duration.ofMillis(10), Duration.ofMillis(500));
  }

  /** No retries: a conflict is reported on the first attempt. */
  public static RetryPolicy noRetries() {
    return new RetryPolicy(1, Duration.ZERO, Duration.ZERO);
  }

  /**
   * The time to wait after {@code failedAttempts} attempts have failed.
   *
   * @param failedAttempts 1 after the first failure
   * @param random the source of jitter
   */
  public Duration delayAfter(int failedAttempts, RandomGenerator random) {
    long capNanos = maxDelay.toNanos();
    long baseNanos = baseDelay.toNanos();
    // Shifting past 62 bits would overflow; by then the cap has long been reached.
    int shift = Math.min(failedAttempts, 62);
    long bound = baseNanos > (capNanos >> shift) ? capNanos : Math.min(capNanos, baseNanos << shift);
    return bound <= 0 ? Duration.ZERO : Duration.ofNanos(random.nextLong(bound + 1));
  }
}
