package dev.esgen.runtime.internal.retry;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * What one store knows of the streams its own writers recently fought over: a small bounded map from
 * stream to the time of its last contention (a lost write, or a writer that had to wait), with one fair
 * turn per stream.
 *
 * <p>Writers of one process that retry a hot stream with backoff keep colliding with each other: each
 * round one wins and the others reload, decide and lose again, and the unlucky one's wait grows while
 * fresh commands overtake it. Taking turns instead lets each of them write in the order they came, on the
 * state the one before left (in the state cache when it is on): no conflict among them, one attempt per
 * command, and a tail bounded by the queue. Only contended streams have turns, so a stream with one
 * writer pays nothing; a stream stops being contended when no writer holds or waits for its turn and its
 * last contention is {@link #CONTENDED_FOR} ago.
 * Writers in other processes do not take these turns: against them the version condition and the
 * backoff still decide.
 *
 * <pre>{@code
 * ContendedStreams contended = new ContendedStreams();              // one per store (RetryBudgets)
 * RetryBudget budget = new RetryBudget(policy, observer, contended);
 * budget.awaitTurn("bank-account", aid, true);   // waits only if the store's writers contend for the stream
 * // ... on a version conflict: budget.retryConflict("bank-account", aid, e) notes it and waits in line
 * budget.releaseTurn();
 * }</pre>
 */
public final class ContendedStreams {

  /** How long a stream counts as contended after its last lost write or wait for a turn. */
  public static final Duration CONTENDED_FOR = Duration.ofSeconds(1);

  /** How many streams are remembered at most; the least recently contended are forgotten first. */
  static final int MAX_STREAMS = 10_000;

  private static final long CONTENDED_FOR_NANOS = CONTENDED_FOR.toNanos();

  private record Key(String aggregateType, String aid) {}

  /**
   * One contended stream: its fair turn, when it was last contended, when a write of this store made in
   * its turn last lost, and how long a write attempt on it takes. The fields are updated without locking: they are
   * estimates, and a lost update only drops one sample.
   */
  static final class Contention {
    private final Semaphore turn = new Semaphore(1, true);
    private volatile long lastContendedNanos;
    /** When a write made in this stream's turn lost; {@link Long#MIN_VALUE} before the first. */
    private volatile long lastLostToOthersNanos = Long.MIN_VALUE;
    /** When a writer of this store last had to wait in line for the turn; {@link Long#MIN_VALUE} before. */
    private volatile long lastQueuedNanos = Long.MIN_VALUE;
    private volatile long cycleNanos;

    Contention(long now) {
      this.lastContendedNanos = now;
    }

    /**
     * Whether a write of this store made in the stream's turn lost within the last {@link #CONTENDED_FOR}:
     * to a writer that does not take this store's turns, in another process.
     */
    boolean lostToOthersRecently(long now) {
      return lastLostToOthersNanos != Long.MIN_VALUE && now - lastLostToOthersNanos <= CONTENDED_FOR_NANOS;
    }

    /** Whether a writer of this store had to wait in line for the turn within the last {@link #CONTENDED_FOR}. */
    boolean queuedRecently(long now) {
      return lastQueuedNanos != Long.MIN_VALUE && now - lastQueuedNanos <= CONTENDED_FOR_NANOS;
    }

    /**
     * A moving average of how long one write attempt on the stream took, from its read to DynamoDB's
     * answer; zero before the first.
     */
    long cycleNanos() {
      return cycleNanos;
    }

    /** Counts one write attempt on the stream that took {@code nanos}. */
    void attemptTook(long nanos) {
      long cycle = cycleNanos;
      // A quarter of each new sample: a few attempts follow a machine that slows down or speeds up, and one
      // long attempt (a pause for throttling) moves the average only so far.
      cycleNanos = cycle == 0 ? nanos : cycle + (nanos - cycle) / 4;
    }
  }

  private final Cache<Key, Contention> streams = Caffeine.newBuilder()
      .maximumSize(MAX_STREAMS)
      .expireAfterAccess(CONTENDED_FOR)
      .build();

  /**
   * Notes that a write on the stream lost to another writer, made in the stream's turn if {@code inTurn};
   * returns the stream's contention.
   */
  Contention conflicted(String aggregateType, String aid, boolean inTurn) {
    long now = System.nanoTime();
    Contention contention = streams.get(new Key(aggregateType, aid), key -> new Contention(now));
    contention.lastContendedNanos = now;
    if (inTurn) {
      contention.lastLostToOthersNanos = now;
    }
    return contention;
  }

  /** The stream's contention while it counts as contended, else null. */
  Contention contention(String aggregateType, String aid) {
    if (streams.estimatedSize() == 0) {
      return null;
    }
    Contention contention = streams.getIfPresent(new Key(aggregateType, aid));
    if (contention == null) {
      return null;
    }
    // A turn that is held or waited for keeps the stream contended however long one write takes: a writer
    // coming back for its next command must not slip past the queue because the last wait began long ago.
    boolean recently = System.nanoTime() - contention.lastContendedNanos <= CONTENDED_FOR_NANOS;
    return !free(contention) || recently ? contention : null;
  }

  /**
   * Takes the stream's turn, in the order writers asked for it, waiting at most until {@code untilNanos}
   * ({@link System#nanoTime()} time).
   *
   * @return how the wait ended
   */
  static Wait take(Contention contention, long untilNanos) {
    try {
      // The timed tryAcquire honours the semaphore's fairness; the untimed one would barge.
      if (contention.turn.tryAcquire(0, TimeUnit.NANOSECONDS)) {
        return Wait.AT_ONCE;
      }
      contention.lastContendedNanos = System.nanoTime();
      contention.lastQueuedNanos = contention.lastContendedNanos;
      long left = untilNanos - System.nanoTime();
      return left > 0 && contention.turn.tryAcquire(left, TimeUnit.NANOSECONDS) ? Wait.AFTER_OTHERS : Wait.TIMED_OUT;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Wait.TIMED_OUT;
    }
  }

  /** Whether no writer of this store holds the stream's turn or waits for it (a moment's view). */
  static boolean free(Contention contention) {
    return contention.turn.availablePermits() > 0 && !contention.turn.hasQueuedThreads();
  }

  static void release(Contention contention) {
    contention.turn.release();
  }

  /** How taking a turn ended. */
  enum Wait {
    /** No writer of this store held the turn. */
    AT_ONCE,
    /** Other writers of this store went first; the stream is as the last of them left it. */
    AFTER_OTHERS,
    /** The wait's end came first, or the thread was interrupted: no turn is held. */
    TIMED_OUT
  }
}
