package dev.esgen.runtime.internal.streams;

import java.time.Duration;
import java.util.Objects;

/**
 * The wait before a failed batch is sent again: {@code initial}, doubling with each further failure of
 * the same batch, never more than {@code max}. No jitter: one poller retries one shard, so there is no
 * crowd to spread.
 *
 * <pre>{@code
 * RetryBackoff backoff = new RetryBackoff(Duration.ofSeconds(1), Duration.ofMinutes(1));
 * backoff.after(3);   // PT4S
 * }</pre>
 */
public record RetryBackoff(Duration initial, Duration max) {

  public RetryBackoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("a retry backoff needs 0 <= initial <= max, was " + initial + " and " + max);
    }
  }

  /** The wait after the {@code failures}-th failure in a row (from 1). */
  public Duration after(int failures) {
    Duration wait = initial;
    for (int i = 1; i < failures && wait.compareTo(max) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(max) > 0 ? max : wait;
  }
}
