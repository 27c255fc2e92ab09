package dev.esgen.runtime.internal.retry;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.FailureKind;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What is left of one operation's {@link RetryPolicy}: the failed attempts so far and the deadline.
 * Every retry of the operation, of whatever kind and at whatever level (a request sent again, a stream
 * reloaded after a conflict), asks {@link #retry} first. Not thread-safe: one operation runs on one
 * thread at a time (an asynchronous operation's steps follow each other through its futures).
 *
 * <pre>{@code
 * RetryBudget budget = new RetryBudget(RetryPolicy.defaults(), RetryBudget.Observer.NONE);
 * while (true) {
 *   try {
 *     return send();
 *   } catch (ProvisionedThroughputExceededException e) {
 *     if (!budget.retry(FailureKind.TRANSIENT, e)) throw e;   // waited; try again
 *   }
 * }
 * }</pre>
 */
public final class RetryBudget {

  /** Hears about every failed attempt, whether it will be retried and after which pause. */
  @FunctionalInterface
  public interface Observer {

    Observer NONE = (kind, failedAttempts, errorCode, retryAfter) -> {};

    /**
     * @param failedAttempts how many attempts of the operation have failed, this one included
     * @param errorCode DynamoDB's error code or the failure's class name, never a stored value
     * @param retryAfter the pause before the next attempt; empty when the budget is spent
     */
    void failed(FailureKind kind, int failedAttempts, String errorCode, Optional<Duration> retryAfter);
  }

  /** How a budget waits; tests count the pauses instead of timing them. */
  @FunctionalInterface
  interface Sleeper {
    Sleeper THREAD = pause -> Thread.sleep(pause.toMillis(), pause.toNanosPart() % 1_000_000);

    void sleep(Duration pause) throws InterruptedException;
  }

  private final RetryPolicy policy;
  private final Observer observer;
  private final ContendedStreams contended;
  private final Sleeper sleeper;
  private final long deadlineNanos;
  private int failedAttempts;
  private Duration lastConflictPause = Duration.ZERO;
  private ContendedStreams.Contention turn;
  /** When the current write attempt began to read, for the stream's write cycle. */
  private long attemptStartedNanos;
  /** Whether this operation's waits on a contended stream are measured in its write cycles. */
  private boolean paced = true;

  /** A budget whose operation takes no turns: it knows of no other writers. */
  public RetryBudget(RetryPolicy policy, Observer observer) {
    this(policy, observer, new ContendedStreams(policy));
  }

  /** A budget that takes turns with the other writers of {@code contended}'s store. */
  public RetryBudget(RetryPolicy policy, Observer observer, ContendedStreams contended) {
    this(policy, observer, contended, Sleeper.THREAD);
  }

  RetryBudget(RetryPolicy policy, Observer observer, ContendedStreams contended, Sleeper sleeper) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.observer = Objects.requireNonNull(observer, "observer");
    this.contended = Objects.requireNonNull(contended, "contended");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.attemptStartedNanos = System.nanoTime();
    this.deadlineNanos = attemptStartedNanos + policy.deadline().toNanos();
  }

  /**
   * Counts a failed attempt of kind {@code kind} and, if attempts and time are left, waits the jittered
   * pause before the next one.
   *
   * @return true when the caller should try again; false when the budget is spent or the thread was
   *     interrupted while waiting (its interrupt flag is then set again)
   */
  public boolean retry(FailureKind kind, Throwable cause) {
    return retry(kind, Failures.describe(cause));
  }

  /** As {@link #retry(FailureKind, Throwable)}, for a failure that is no exception, named by {@code errorCode}. */
  public boolean retry(FailureKind kind, String errorCode) {
    return nextPause(kind, errorCode).map(this::sleep).orElse(false);
  }

  /**
   * Counts a write on the stream {@code aid} of {@code aggregateType} that lost to another writer and, if
   * attempts and time are left, waits before the next one: behind the other writers of this store that
   * are waiting for the stream (then no more), else the decorrelated-jitter pause of
   * {@link RetryPolicy#delayAfterConflict}, capped at a few of the stream's write cycles
   * ({@link ContentionPacing}). Either way the operation then holds the stream's turn, unless it holds one
   * already, until {@link #releaseTurn()}.
   *
   * @return true when the caller should decide again; false when the budget is spent or the thread was
   *     interrupted
   */
  public boolean retryConflict(String aggregateType, String aid, Throwable cause) {
    return retryConflict(aggregateType, aid, cause, false);
  }

  /**
   * As {@link #retryConflict(String, String, Throwable)}, for a writer that may know who won.
   *
   * @param toAnotherProcess true when the writer knows the write that won was none of this store's (with
   *     the state cache: the store remembers no newer version of the stream than the one refused). A
   *     write made in the stream's turn counts so anyway: the store's own writers take turns.
   */
  public boolean retryConflict(String aggregateType, String aid, Throwable cause, boolean toAnotherProcess) {
    failedAttempts++;
    // Writers of this store that take the stream's turn do not collide with each other: a write made in the
    // turn lost to a writer in another process (or one of this store's that gave up waiting in line).
    ContendedStreams.Contention lost = contended.conflicted(aggregateType, aid, turn != null || toAnotherProcess);
    lost.attemptTook(System.nanoTime() - attemptStartedNanos);
    if (failedAttempts >= policy.maxAttempts()) {
      observer.failed(FailureKind.VERSION_CONFLICT, failedAttempts, Failures.describe(cause), Optional.empty());
      return false;
    }
    if (turn == null) {
      ContendedStreams.Contention contention = contended.contention(aggregateType, aid);
      long waitStarted = System.nanoTime();
      ContendedStreams.Wait wait =
          contention == null ? ContendedStreams.Wait.TIMED_OUT : ContendedStreams.take(contention, turnWaitEnd());
      if (wait != ContendedStreams.Wait.TIMED_OUT) {
        turn = contention;
      }
      if (wait == ContendedStreams.Wait.AFTER_OTHERS) {
        // Whoever went first wrote the stream since this operation read it: a reload finds it settled.
        observer.failed(FailureKind.VERSION_CONFLICT, failedAttempts, Failures.describe(cause),
            Optional.of(Duration.ofNanos(System.nanoTime() - waitStarted)));
        attemptStartedNanos = System.nanoTime();
        return true;
      }
    }
    boolean again = pause(FailureKind.VERSION_CONFLICT, Failures.describe(cause),
        paced ? conflictPause(lost.cycleNanos()) : rememberedConflictPause());
    attemptStartedNanos = System.nanoTime();
    return again;
  }

  /**
   * Before an operation writes the stream {@code aid} of {@code aggregateType}: if writers of this store
   * contended for it recently, waits for this operation's turn (at most the policy's {@code maxDelay}).
   * If {@code paced}, no writer of this store holds the turn or waited for it lately, and a write of this
   * store made in the turn lost lately (to a writer in another process), a new operation first pauses a random part
   * of a few write cycles ({@link ContentionPacing#politePause}), so that writers of other processes it
   * beat get their turn; and its waits after conflicts are capped at a few write cycles
   * ({@link ContentionPacing#conflictPause}). If not {@code paced}, the pause comes only before every few
   * new operations, while a write of this store lost to another process's within
   * {@link ContendedStreams#othersFor} ({@link ContentionPacing#yields}). Does nothing on any other stream,
   * or when the operation holds a turn already (an operation holds one at most).
   *
   * @param paced false where the writer decides on state it remembers without reading it: there a pause
   *     before every command would only let that state go stale, so the writer leaves a gap before every
   *     few, and after losing a quarter of its attempts waits patiently ({@link ContentionPacing#patientPause})
   *     instead of by the stream's write cycles
   */
  public void awaitTurn(String aggregateType, String aid, boolean paced) {
    this.paced = paced;
    if (turn != null) {
      return;
    }
    if (!paced && failedAttempts == 0) {
      ContendedStreams.Contention others = contended.lostToOthers(aggregateType, aid);
      // The writer that won against other processes keeps winning on the state it remembers; a gap before
      // every few of its commands lets the writers it beat in. Not while writers of its own store are in
      // line: they hand the stream on by turns.
      if (others != null && alone(others, System.nanoTime()) && ContentionPacing.yields(others)) {
        politePause(others);
      }
    }
    ContendedStreams.Contention contention = contended.contention(aggregateType, aid);
    if (contention == null) {
      return;
    }
    // Writers of this store in line follow each other without a pause: the turn already hands the stream
    // from one to the next, and pausing with the turn free let the stream drop out of contention and them
    // collide again (measured: 11-13 conflicts in 400 commands instead of 3). The pause is for a store whose
    // writer has no one of its own in line, the one that can keep other processes out. It comes before the
    // turn is taken, so that it never holds up a writer of its own store.
    long now = System.nanoTime();
    if (paced && failedAttempts == 0 && contention.lostToOthersRecently(now) && alone(contention, now)) {
      politePause(contention);
    }
    if (ContendedStreams.take(contention, turnWaitEnd()) != ContendedStreams.Wait.TIMED_OUT) {
      turn = contention;
    }
    attemptStartedNanos = System.nanoTime();
  }

  /** Whether no writer of this store holds the stream's turn or waited in line for it lately. */
  private static boolean alone(ContendedStreams.Contention contention, long now) {
    return !contention.queuedRecently(now) && ContendedStreams.free(contention);
  }

  /** Pauses a random part of a few of the stream's write cycles, unless that would pass the deadline. */
  private void politePause(ContendedStreams.Contention contention) {
    Duration pause = ContentionPacing.politePause(policy, contention.cycleNanos(), ThreadLocalRandom.current());
    if (System.nanoTime() + pause.toNanos() < deadlineNanos) {
      sleep(pause);
    }
  }

  /**
   * After an operation's write on the stream {@code aid} of {@code aggregateType} was stored: on a
   * contended stream, counts how long the attempt took towards the stream's write cycle. Does nothing on
   * any other stream.
   */
  public void wrote(String aggregateType, String aid) {
    ContendedStreams.Contention contention = turn != null ? turn : contended.contention(aggregateType, aid);
    if (contention != null) {
      contention.attemptTook(System.nanoTime() - attemptStartedNanos);
    }
  }

  /** Whether this operation holds a stream's turn. */
  public boolean holdsTurn() {
    return turn != null;
  }

  /** Gives back the stream's turn this operation holds, if any, to the next writer in line. */
  public void releaseTurn() {
    if (turn != null) {
      ContendedStreams.release(turn);
      turn = null;
    }
  }

  /**
   * How long a writer waits in line at most: no longer than the longest backoff pause, and not past the
   * deadline. The writer before may itself wait for something this one does (a decision that waits for
   * another command on the same stream); then this one goes on without its turn and the version condition
   * decides, as between processes.
   */
  private long turnWaitEnd() {
    return Math.min(deadlineNanos, System.nanoTime() + policy.maxDelay().toNanos());
  }

  /**
   * The next pause after a conflict of a writer deciding on remembered state: the policy's decorrelated
   * jitter, until a quarter of the attempts are spent; then a patient one ({@link ContentionPacing#patientPause}).
   */
  private Duration rememberedConflictPause() {
    if (!ContentionPacing.patient(policy, failedAttempts)) {
      return conflictPause(0);
    }
    lastConflictPause = ContentionPacing.patientPause(policy, ThreadLocalRandom.current());
    return lastConflictPause;
  }

  /** The next pause after a conflict on a stream whose write cycle is {@code cycleNanos} (zero: not measured). */
  private Duration conflictPause(long cycleNanos) {
    lastConflictPause =
        ContentionPacing.conflictPause(policy, lastConflictPause, cycleNanos, ThreadLocalRandom.current());
    return lastConflictPause;
  }

  private boolean pause(FailureKind kind, String errorCode, Duration pause) {
    return allowPause(kind, errorCode, pause).map(this::sleep).orElse(false);
  }

  /**
   * For callers that must not block a thread, before a new operation on the stream {@code aid} of
   * {@code aggregateType} decides on the state its store remembers (the state cache): the gap to leave
   * first, as {@link #awaitTurn} leaves it for a writer that is not paced, without taking a turn; zero for
   * none. From then on the operation's conflict pauses ({@link #pauseAfterConflict}) are those of a writer
   * deciding on remembered state.
   */
  public Duration gapBeforeRemembered(String aggregateType, String aid) {
    paced = false;
    if (failedAttempts > 0) {
      return Duration.ZERO;
    }
    ContendedStreams.Contention others = contended.lostToOthers(aggregateType, aid);
    if (others == null || !alone(others, System.nanoTime()) || !ContentionPacing.yields(others)) {
      return Duration.ZERO;
    }
    Duration pause = ContentionPacing.politePause(policy, others.cycleNanos(), ThreadLocalRandom.current());
    return System.nanoTime() + pause.toNanos() < deadlineNanos ? pause : Duration.ZERO;
  }

  /**
   * As {@link #retryConflict(String, String, Throwable, boolean)}, but does not wait and takes no turn: counts
   * the write on the stream that lost and returns the pause before deciding again, empty when the budget is
   * spent. For callers that must not block a thread (asynchronous operations wait on a delayed executor):
   * after {@link #gapBeforeRemembered} the pauses of a writer deciding on remembered state, else the
   * policy's conflict backoff.
   */
  public Optional<Duration> pauseAfterConflict(String aggregateType, String aid, Throwable cause,
      boolean toAnotherProcess) {
    failedAttempts++;
    long now = System.nanoTime();
    contended.conflicted(aggregateType, aid, toAnotherProcess).attemptTook(now - attemptStartedNanos);
    Optional<Duration> pause = allowPause(FailureKind.VERSION_CONFLICT, Failures.describe(cause),
        paced ? conflictPause(0) : rememberedConflictPause());
    attemptStartedNanos = now + pause.map(Duration::toNanos).orElse(0L);
    return pause;
  }

  /**
   * Counts a failed attempt of kind {@code kind} as {@link #retry(FailureKind, Throwable)} does, but does
   * not wait: returns the pause to wait before the next attempt, empty when the budget is spent. For
   * callers that must not block a thread (asynchronous operations wait on a delayed executor); a version
   * conflict pauses with the conflict backoff (a command's conflict goes to {@link #pauseAfterConflict}).
   */
  public Optional<Duration> pauseBeforeRetry(FailureKind kind, Throwable cause) {
    return nextPause(kind, Failures.describe(cause));
  }

  /** As {@link #pauseBeforeRetry(FailureKind, Throwable)}, for a failure that is no exception, named by {@code errorCode}. */
  public Optional<Duration> pauseBeforeRetry(FailureKind kind, String errorCode) {
    return nextPause(kind, errorCode);
  }

  private Optional<Duration> nextPause(FailureKind kind, String errorCode) {
    failedAttempts++;
    Duration pause = kind == FailureKind.VERSION_CONFLICT
        ? conflictPause(0)
        : policy.delayAfter(failedAttempts, ThreadLocalRandom.current());
    return allowPause(kind, errorCode, pause);
  }

  private Optional<Duration> allowPause(FailureKind kind, String errorCode, Duration pause) {
    boolean allowed = failedAttempts < policy.maxAttempts() && System.nanoTime() + pause.toNanos() < deadlineNanos;
    Optional<Duration> retryAfter = allowed ? Optional.of(pause) : Optional.empty();
    observer.failed(kind, failedAttempts, errorCode, retryAfter);
    return retryAfter;
  }

  /** How many attempts have failed so far. */
  public int failedAttempts() {
    return failedAttempts;
  }

  /** The policy this budget draws on. */
  public RetryPolicy policy() {
    return policy;
  }

  private boolean sleep(Duration pause) {
    try {
      sleeper.sleep(pause);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
