package dev.esgen.runtime.internal.feed;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongFunction;

/**
 * Keeps deliveries of one projection's stream within one change feed from running at once (a replay and
 * the live feed, two shards after a split), so that none of them takes an event the other took already.
 * Positions are striped over a fixed number of locks; each stripe also counts the deliveries made under
 * it, so that a position read outside the lock is known to be stale when another delivery ran since.
 *
 * <pre>{@code
 * long seen = locks.version(key);
 * long position = positions.read(List.of(key)).get(key);       // outside the lock, batched
 * Outcome outcome = locks.deliver(key,
 *     now -> deliverer.deliver(delivery, now == seen ? position : positions.read(key)));
 * }</pre>
 */
public final class StreamLocks {

  private static final int STRIPES = 256;

  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
  private final AtomicLongArray deliveries = new AtomicLongArray(STRIPES);

  public StreamLocks() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** How many deliveries have run under {@code key}'s stripe so far. */
  public long version(PositionKey key) {
    return deliveries.get(stripe(key));
  }

  /**
   * Runs {@code delivery} holding {@code key}'s lock, and counts it: the delivery gets the stripe's
   * version before it, and the stripe's version after it is one more.
   */
  public <T> T deliver(PositionKey key, LongFunction<T> delivery) {
    int stripe = stripe(key);
    locks[stripe].lock();
    try {
      return delivery.apply(deliveries.get(stripe));
    } finally {
      deliveries.incrementAndGet(stripe);
      locks[stripe].unlock();
    }
  }

  /** Which lock guards {@code key}. */
  public static int stripe(PositionKey key) {
    return Math.floorMod(key.hashCode(), STRIPES);
  }
}
