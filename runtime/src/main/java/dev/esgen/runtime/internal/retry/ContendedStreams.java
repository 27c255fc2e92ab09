package dev.esgen.runtime.internal.retry;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.esgen.runtime.config.RetryPolicy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * What one store knows of the streams its own writers recently fought over: a small bounded map from
 * stream to the time of its last contention (a lost write, a writer that had to wait, a turn that ended),
 * with one fair turn per stream.
 *
 * <p>Writers of one process that retry a hot stream with backoff keep colliding with each other: each
 * round one wins and the others reload, decide and lose again, and the unlucky one's wait grows while
 * fresh commands overtake it. Taking turns instead lets each of them write in the order they came, on the
 * state the one before left (in the state cache when it is on): no conflict among them, one attempt per
 * command, and a tail bounded by the queue. Only contended streams have turns, so a stream with one
 * writer pays nothing; a stream stops being contended when no writer holds or waits for its turn and its
 * last contention (a lost write, a wait in line, the end of a turn) is {@link #CONTENDED_FOR} ago.
 * Writers in other processes do not take these turns: against them the version condition and the
 * backoff still decide. A store also remembers for a while ({@link #othersFor}) that a write of its own
 * lost to another process's on the stream, so that its writers deciding on remembered state leave the
 * others gaps ({@link ContentionPacing#yields}).
 *
 * <pre>{@code
 * ContendedStreams contended = new ContendedStreams(policy);        // one per store (RetryBudgets)
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

  /**
   * How many of the policy's longest waits a store remembers that a write of its own lost to another
   * process's on a stream: a writer it beat that is still trying comes back within one such wait, so
   * after ten of them without a loss no one is likely to be waiting any more.
   */
  static final int OTHERS_FOR_MAX_DELAYS = 10;

  private record Key(String aggregateType, String aid) {}

  /**
   * One contended stream: its fair turn, when it was last contended, when a write of this store last lost
   * to another process's, how long a write attempt on it takes, and how many commands in a row this store
   * decided on remembered state since it last left a gap. The fields are updated without locking: they are
   * estimates, and a lost update only drops one sample or shifts one gap by a command.
   */
  static final class Contention {
    private final StreamTurn turn = new StreamTurn();
    private volatile long lastContendedNanos;
    /**
     * When a write of this store lost to another process's (made in this stream's turn, or known by the
     * state cache not to have lost to this store); {@link Long#MIN_VALUE} before the first.
     */
    private volatile long lastLostToOthersNanos = Long.MIN_VALUE;
    /** When a writer of this store last had to wait in line for the turn; {@link Long#MIN_VALUE} before. */
    private volatile long lastQueuedNanos = Long.MIN_VALUE;
    private volatile long cycleNanos;
    /** Commands decided on remembered state since the last gap or lost write. */
    private volatile int rememberedRun;

    Contention(long now) {
      this.lastContendedNanos = now;
    }

    /**
     * Whether a write of this store lost to another process's within the last {@link #CONTENDED_FOR}: one
     * made in the stream's turn (the store's own writers take turns), or one the state cache tells lost
     * to none of the store's writes.
     */
    boolean lostToOthersRecently(long now) {
      return lostToOthersWithin(now, CONTENDED_FOR_NANOS);
    }

    /** As {@link #lostToOthersRecently}, within the last {@code nanos}. */
    boolean lostToOthersWithin(long now, long nanos) {
      return lastLostToOthersNanos != Long.MIN_VALUE && now - lastLostToOthersNanos <= nanos;
    }

    /**
     * Counts one more command this store decides on remembered state; returns whether it is the
     * {@code every}-th since the last gap or lost write, and then starts counting again.
     */
    boolean rememberedRunEnds(int every) {
      int run = rememberedRun + 1;
      rememberedRun = run >= every ? 0 : run;
      return run >= every;
    }

    /** Whether a writer of this store had to wait in line for the turn within the last {@link #CONTENDED_FOR}. */
    boolean queuedRecently(long now) {
      return queuedSince(now - CONTENDED_FOR_NANOS);
    }

    /** Whether a writer of this store began to wait in line for the turn at {@code nanos} or later. */
    boolean queuedSince(long nanos) {
      return lastQueuedNanos != Long.MIN_VALUE && lastQueuedNanos - nanos >= 0;
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

  private final long othersForNanos;
  private final Cache<Key, Contention> streams;

  /** What one store knows of its contended streams, for a store with the default {@link RetryPolicy}. */
  public ContendedStreams() {
    this(RetryPolicy.defaults());
  }

  /** What one store knows of its contended streams, for a store whose retries follow {@code policy}. */
  public ContendedStreams(RetryPolicy policy) {
    Duration othersFor = othersFor(policy);
    this.othersForNanos = othersFor.toNanos();
    // Kept at least as long as a writer may hold the turn or wait in line (an operation's deadline, and
    // the pause it may overrun it by): writers in line do not touch the entry, and a new writer must find
    // their line, not start another beside it.
    Duration longestTurn = policy.deadline().plus(policy.maxDelay());
    this.streams = Caffeine.newBuilder()
        .maximumSize(MAX_STREAMS)
        .expireAfterAccess(othersFor.compareTo(longestTurn) > 0 ? othersFor : longestTurn)
        .build();
  }

  /**
   * How long a store remembers that a write of its own lost to another process's on a stream:
   * {@link #OTHERS_FOR_MAX_DELAYS} of the policy's longest waits, and never less than {@link #CONTENDED_FOR}.
   */
  static Duration othersFor(RetryPolicy policy) {
    Duration waits = policy.maxDelay().multipliedBy(OTHERS_FOR_MAX_DELAYS);
    return waits.compareTo(CONTENDED_FOR) > 0 ? waits : CONTENDED_FOR;
  }

  /**
   * Notes that a write on the stream lost to another writer, to one in another process if
   * {@code toOthers}; returns the stream's contention.
   */
  Contention conflicted(String aggregateType, String aid, boolean toOthers) {
    long now = System.nanoTime();
    Contention contention = streams.get(new Key(aggregateType, aid), key -> new Contention(now));
    contention.lastContendedNanos = now;
    contention.rememberedRun = 0;
    if (toOthers) {
      contention.lastLostToOthersNanos = now;
    }
    return contention;
  }

  /**
   * The stream's contention while a write of this store lost to another process's within
   * {@link #othersFor}, whether or not the stream still counts as contended; else null.
   */
  Contention lostToOthers(String aggregateType, String aid) {
    if (streams.estimatedSize() == 0) {
      return null;
    }
    Contention contention = streams.getIfPresent(new Key(aggregateType, aid));
    return contention != null && contention.lostToOthersWithin(System.nanoTime(), othersForNanos) ? contention : null;
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
    CompletableFuture<Boolean> requested = contention.turn.request();
    if (requested.isDone()) {
      return Wait.AT_ONCE;
    }
    queued(contention);
    return contention.turn.await(requested, untilNanos - System.nanoTime()) ? Wait.AFTER_OTHERS : Wait.TIMED_OUT;
  }

  /**
   * As {@link #take}, without holding a thread: the future completes on {@code executor} when the turn is
   * taken or the wait ends.
   */
  static CompletableFuture<Wait> takeAsync(Contention contention, long untilNanos, Executor executor) {
    CompletableFuture<Boolean> requested = contention.turn.request();
    if (requested.isDone()) {
      return CompletableFuture.completedFuture(Wait.AT_ONCE);
    }
    queued(contention);
    // The time-out leaves the line unless the turn came first; it is cancelled when the turn comes, so a
    // long line leaves no timers behind.
    requested.completeOnTimeout(Boolean.FALSE, Math.max(untilNanos - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
    // Not on the thread that handed the turn on (the end of another writer's operation) nor on the timer's.
    return requested.thenApplyAsync(got -> got ? Wait.AFTER_OTHERS : Wait.TIMED_OUT, executor);
  }

  private static void queued(Contention contention) {
    contention.lastContendedNanos = System.nanoTime();
    contention.lastQueuedNanos = contention.lastContendedNanos;
  }

  /** Whether no writer of this store holds the stream's turn or waits for it (a moment's view). */
  static boolean free(Contention contention) {
    return contention.turn.free();
  }

  /**
   * Hands the stream's turn on. The stream stays contended for {@link #CONTENDED_FOR} after that: a burst
   * of commands that arrives after the line drained, when the line took longer than that, still takes
   * turns instead of colliding all over again.
   */
  static void release(Contention contention) {
    contention.lastContendedNanos = System.nanoTime();
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
