package dev.esgen.runtime.repository;

import dev.esgen.runtime.config.ReadConsistency;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How one load or lookup reads: with which consistency, and whether a state the store's cache
 * remembers is good enough.
 *
 * <p>{@link #cachedWithin(Duration)} is the cheapest read there is: a stream the store read or wrote at
 * most that long ago comes from its state cache with no request at all (after Equinox's
 * {@code AllowStale}); any other is read from DynamoDB and remembered. It needs the store's cache
 * ({@link dev.esgen.runtime.config.StateCachePolicy}); without one it reads as usual. The state may miss
 * what other processes wrote in that time, so use it where a moment's lag is fine.
 *
 * <pre>{@code
 * BankAccount fresh = accounts.load(id);                                        // the repository's default
 * BankAccount cheap = accounts.load(id, ReadOptions.eventual());                 // half the read units
 * BankAccount free = accounts.load(id, ReadOptions.cachedWithin(Duration.ofSeconds(5)));   // 0 requests if cached
 * }</pre>
 *
 * @param consistency how to read DynamoDB; empty for the repository's default (see
 *     {@link dev.esgen.runtime.config.StoreConfig#readConsistencyOf(String)})
 * @param maxCachedAge how old a cached state may be to be returned without a read; zero never uses the cache
 */
public record ReadOptions(Optional<ReadConsistency> consistency, Duration maxCachedAge) {

  private static final ReadOptions DEFAULTS = new ReadOptions(Optional.empty(), Duration.ZERO);

  /**
   * Checks the options.
   *
   * @throws IllegalArgumentException when {@code maxCachedAge} is negative
   */
  public ReadOptions {
    Objects.requireNonNull(consistency, "consistency");
    Objects.requireNonNull(maxCachedAge, "maxCachedAge");
    if (maxCachedAge.isNegative()) {
      throw new IllegalArgumentException("maxCachedAge must not be negative, was " + maxCachedAge);
    }
  }

  /** The repository's default consistency, no cached state. */
  public static ReadOptions defaults() {
    return DEFAULTS;
  }

  /** A strongly consistent read, whatever the repository's default. */
  public static ReadOptions strong() {
    return DEFAULTS.withConsistency(ReadConsistency.STRONG);
  }

  /** An eventually consistent read (half the read units), whatever the repository's default. */
  public static ReadOptions eventual() {
    return DEFAULTS.withConsistency(ReadConsistency.EVENTUAL);
  }

  /**
   * A cached state read or written at most {@code maxAge} ago, without a request; else a read with the
   * repository's default consistency.
   */
  public static ReadOptions cachedWithin(Duration maxAge) {
    return new ReadOptions(Optional.empty(), maxAge);
  }

  /** These options reading DynamoDB with {@code newConsistency}. */
  public ReadOptions withConsistency(ReadConsistency newConsistency) {
    return new ReadOptions(Optional.of(newConsistency), maxCachedAge);
  }
}
