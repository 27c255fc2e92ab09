package dev.esgen.runtime.config;

import dev.esgen.runtime.internal.Durations;
import java.time.Duration;
import java.util.Objects;

/**
 * Whether and how much a store remembers of the streams it loaded and wrote: the state, version and
 * storage position of up to {@code maxStreams} streams, each for at most {@code maxAge} after it was
 * read or written. One cache per store, shared by all its repositories.
 *
 * <p>With the cache, {@code transact} decides on the remembered state and appends conditioned on its
 * version: one request when no other process wrote the stream since, and a rejected write, a reload and
 * a second decision when one did. Nothing is ever written on a stale state, because every append is
 * conditioned on the version it builds on. Loads answer from the cache without a request only when a
 * caller asks for it with {@link dev.esgen.runtime.repository.ReadOptions#cachedWithin}; every other load
 * still reads the stream's head, but folds on from the remembered state: on the journal layout it reads
 * only the events appended since it was remembered, none when no one wrote (one request instead of two).
 *
 * <p>Off by default: it pays when this process is usually the last writer of a stream (requests routed
 * by aggregate id, a single writer per stream); when many processes write the same streams in turn, a
 * remembered state is often stale and costs a rejected write (which DynamoDB bills) before the reload.
 * It also holds up to {@code maxStreams} states in memory. See {@code docs/performance.md}.
 *
 * <pre>{@code
 * StoreConfig config = StoreConfig.defaults()
 *     .withStateCache(StateCachePolicy.of(10_000, Duration.ofMinutes(5)));
 * }</pre>
 *
 * @param maxStreams how many streams the cache holds at most (least recently and least often used go
 *     first); 0 switches the cache off
 * @param maxAge how long after it was read or written a stream's entry is dropped; positive, at most
 *     {@link #MAX_AGE}
 */
public record StateCachePolicy(long maxStreams, Duration maxAge) {

  /** The longest {@code maxAge}: 36,500 days (100 years); the cache counts ages in milliseconds of its clock. */
  public static final Duration MAX_AGE = Duration.ofDays(36_500);

  private static final StateCachePolicy DISABLED = new StateCachePolicy(0, Duration.ofSeconds(1));

  /**
   * Checks the policy.
   *
   * @throws IllegalArgumentException when {@code maxStreams} is negative or {@code maxAge} not positive or
   *     longer than {@link #MAX_AGE}
   */
  public StateCachePolicy {
    if (maxStreams < 0) {
      throw new IllegalArgumentException("maxStreams must be 0 (no cache) or more, was " + maxStreams);
    }
    Objects.requireNonNull(maxAge, "maxAge");
    if (maxAge.isNegative() || maxAge.isZero()) {
      throw new IllegalArgumentException("maxAge must be positive, was " + maxAge);
    }
    Durations.requireAtMost("maxAge", maxAge, MAX_AGE);
  }

  /** No cache: every {@code transact} loads the stream first. The default. */
  public static StateCachePolicy disabled() {
    return DISABLED;
  }

  /** A cache of up to {@code maxStreams} streams, each kept for at most {@code maxAge}. */
  public static StateCachePolicy of(long maxStreams, Duration maxAge) {
    return new StateCachePolicy(maxStreams, maxAge);
  }

  /** Whether this policy keeps anything. */
  public boolean enabled() {
    return maxStreams > 0;
  }
}
