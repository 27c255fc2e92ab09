package dev.esgen.runtime.internal.retry;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.internal.async.CompletableFutures;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

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

  /** How an asynchronous operation waits without a thread; tests count the pauses instead. */
  @FunctionalInterface
  interface Delayer {
    Delayer EXECUTOR = (pause, executor) ->
        CompletableFutures.after(pause, executor, () -> CompletableFuture.<Void>completedFuture(null));

    /** A future completed on {@code executor} once {@code pause} has passed. */
    CompletableFuture<Void> delay(Duration pause, Executor executor);
  }

  private final RetryPolicy policy;
  private final Observer observer;
  private final ContendedStreams contended;
  private final Sleeper sleeper;
  private final Delayer delayer;
  private final long deadlineNanos;
  private int failedAttempts;
  private Duration lastConflictPause = Duration.ZERO;
  private ContendedStreams.Contention turn;
  /**
   * Whether this operation runs inside one holding a turn (a repository call in a decide function): it
   * then takes no turn of its own, as waiting in line behind the operation around it would only delay it.
   */
  private boolean insideTurn;
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
    this(policy, observer, contended, sleeper, Delayer.EXECUTOR);
  }

  RetryBudget(RetryPolicy policy, Observer observer, ContendedStreams contended, Sleeper sleeper, Delayer delayer) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.observer = Objects.requireNonNull(observer, "observer");
    this.contended = Objects.requireNonNull(contended, "contended");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.delayer = Objects.requireNonNull(delayer, "delayer");
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
    ContendedStreams.Contention lost = lostWrite(aggregateType, aid, toAnotherProcess);
    if (spent(cause)) {
      return false;
    }
    if (!inTurn()) {
      ContendedStreams.Contention contention = contended.contention(aggregateType, aid);
      long waitStarted = System.nanoTime();
      ContendedStreams.Wait wait =
          contention == null ? ContendedStreams.Wait.TIMED_OUT : ContendedStreams.take(contention, turnWaitEnd());
      if (tookTurn(contention, wait, cause, waitStarted)) {
        return true;
      }
    }
    boolean again = pause(FailureKind.VERSION_CONFLICT, Failures.describe(cause), nextConflictPause(lost));
    attemptStartedNanos = System.nanoTime();
    return again;
  }

  /**
   * As {@link #retryConflict(String, String, Throwable, boolean)}, without holding a thread: the wait in
   * line and the pause are spent on {@code executor} (through a delayed executor). The future completes
   * with true when the caller should decide again, false when the budget is spent.
   */
  public CompletableFuture<Boolean> retryConflictAsync(String aggregateType, String aid, Throwable cause,
      boolean toAnotherProcess, Executor executor) {
    ContendedStreams.Contention lost = lostWrite(aggregateType, aid, toAnotherProcess);
    if (spent(cause)) {
      return CompletableFuture.completedFuture(false);
    }
    ContendedStreams.Contention contention = inTurn() ? null : contended.contention(aggregateType, aid);
    if (contention == null) {
      return pauseAfterConflict(lost, cause, executor);
    }
    long waitStarted = System.nanoTime();
    return ContendedStreams.takeAsync(contention, deadlineNanos, executor).thenCompose(wait ->
        tookTurn(contention, wait, cause, waitStarted)
            ? CompletableFuture.completedFuture(true)
            : pauseAfterConflict(lost, cause, executor));
  }

  /** Counts a failed attempt: a write on the stream that lost; returns the stream's contention. */
  private ContendedStreams.Contention lostWrite(String aggregateType, String aid, boolean toAnotherProcess) {
    failedAttempts++;
    // Writers of this store that take the stream's turn do not collide with each other: a write made in the
    // turn lost to a writer in another process (or one of this store's that gave up waiting in line).
    ContendedStreams.Contention lost = contended.conflicted(aggregateType, aid, inTurn() || toAnotherProcess);
    lost.attemptTook(System.nanoTime() - attemptStartedNanos);
    return lost;
  }

  /** Whether the conflict just counted used up the attempts, which the observer then hears. */
  private boolean spent(Throwable cause) {
    if (failedAttempts < policy.maxAttempts()) {
      return false;
    }
    observer.failed(FailureKind.VERSION_CONFLICT, failedAttempts, Failures.describe(cause), Optional.empty());
    return true;
  }

  /**
   * Holds {@code contention}'s turn unless the wait for it ended first; returns whether other writers of
   * this store went first, so that the stream is settled and the caller decides again at once.
   */
  private boolean tookTurn(ContendedStreams.Contention contention, ContendedStreams.Wait wait, Throwable cause,
      long waitStarted) {
    if (wait != ContendedStreams.Wait.TIMED_OUT) {
      turn = contention;
    }
    if (wait != ContendedStreams.Wait.AFTER_OTHERS) {
      return false;
    }
    // Whoever went first wrote the stream since this operation read it: a reload finds it settled.
    observer.failed(FailureKind.VERSION_CONFLICT, failedAttempts, Failures.describe(cause),
        Optional.of(Duration.ofNanos(System.nanoTime() - waitStarted)));
    attemptStartedNanos = System.nanoTime();
    return true;
  }

  private CompletableFuture<Boolean> pauseAfterConflict(ContendedStreams.Contention lost, Throwable cause,
      Executor executor) {
    Optional<Duration> pause = allowPause(FailureKind.VERSION_CONFLICT, Failures.describe(cause), nextConflictPause(lost));
    if (pause.isEmpty()) {
      return CompletableFuture.completedFuture(false);
    }
    return after(pause.get(), executor, () -> {
      attemptStartedNanos = System.nanoTime();
      return CompletableFuture.completedFuture(true);
    });
  }

  /**
   * The pause after a lost write on {@code lost}'s stream: capped at a few write cycles for a paced writer,
   * else that of a writer deciding on remembered state.
   */
  private Duration nextConflictPause(ContendedStreams.Contention lost) {
    return paced ? conflictPause(lost.cycleNanos()) : rememberedConflictPause();
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
   * when the operation holds a turn already (an operation holds one at most), or when it runs inside one
   * that holds a turn ({@link RetryBudgets#suspend}).
   *
   * @param paced false where the writer decides on state it remembers without reading it: there a pause
   *     before every command would only let that state go stale, so the writer leaves a gap before every
   *     few, and after losing a quarter of its attempts waits patiently ({@link ContentionPacing#patientPause})
   *     instead of by the stream's write cycles
   */
  public void awaitTurn(String aggregateType, String aid, boolean paced) {
    this.paced = paced;
    if (inTurn()) {
      return;
    }
    sleepIfAny(rememberedGap(aggregateType, aid));
    ContendedStreams.Contention contention = contended.contention(aggregateType, aid);
    if (contention == null) {
      return;
    }
    sleepIfAny(politeGap(contention));
    if (ContendedStreams.take(contention, turnWaitEnd()) != ContendedStreams.Wait.TIMED_OUT) {
      turn = contention;
    }
    attemptStartedNanos = System.nanoTime();
  }

  /**
   * As {@link #awaitTurn}, without holding a thread: the gaps and the wait in line are spent on
   * {@code executor} (through a delayed executor). The future completes when the operation may decide.
   */
  public CompletableFuture<Void> awaitTurnAsync(String aggregateType, String aid, boolean paced, Executor executor) {
    this.paced = paced;
    if (inTurn()) {
      return CompletableFuture.completedFuture(null);
    }
    return after(rememberedGap(aggregateType, aid), executor, () -> {
      ContendedStreams.Contention contention = contended.contention(aggregateType, aid);
      if (contention == null) {
        return CompletableFuture.completedFuture(null);
      }
      return after(politeGap(contention), executor, () ->
          ContendedStreams.takeAsync(contention, deadlineNanos, executor).thenAccept(wait -> {
            if (wait != ContendedStreams.Wait.TIMED_OUT) {
              turn = contention;
            }
            attemptStartedNanos = System.nanoTime();
          }));
    });
  }

  /**
   * The gap a writer that is not paced leaves before a new operation: while a write of this store lost
   * to another process's lately and no writer of this store is in line, before every few operations
   * (ContentionPacing#yields); else zero. The writer that won against other processes keeps winning on
   * the state it remembers, and the gap lets the writers it beat in. Not while writers of its own store
   * are in line: they hand the stream on by turns.
   */
  private Duration rememberedGap(String aggregateType, String aid) {
    if (paced || failedAttempts > 0) {
      return Duration.ZERO;
    }
    ContendedStreams.Contention others = contended.lostToOthers(aggregateType, aid);
    return others != null && alone(others, System.nanoTime()) && ContentionPacing.yields(others)
        ? politePause(others)
        : Duration.ZERO;
  }

  /**
   * The pause a paced writer takes before the turn on a contended stream: a polite one when a write of
   * this store made in the turn lost lately and no writer of this store is in line, else zero.
   *
   * <p>Writers of this store in line follow each other without a pause: the turn already hands the stream
   * from one to the next, and pausing with the turn free let the stream drop out of contention and them
   * collide again (measured: 11-13 conflicts in 400 commands instead of 3). The pause is for a store whose
   * writer has no one of its own in line, the one that can keep other processes out. It comes before the
   * turn is taken, so that it never holds up a writer of its own store.
   */
  private Duration politeGap(ContendedStreams.Contention contention) {
    long now = System.nanoTime();
    return paced && failedAttempts == 0 && contention.lostToOthersRecently(now) && alone(contention, now)
        ? politePause(contention)
        : Duration.ZERO;
  }

  /** Whether no writer of this store holds the stream's turn or waited in line for it lately. */
  private static boolean alone(ContendedStreams.Contention contention, long now) {
    return !contention.queuedRecently(now) && ContendedStreams.free(contention);
  }

  /** A random part of a few of the stream's write cycles; zero when that would pass the deadline. */
  private Duration politePause(ContendedStreams.Contention contention) {
    Duration pause = ContentionPacing.politePause(policy, contention.cycleNanos(), ThreadLocalRandom.current());
    return System.nanoTime() + pause.toNanos() < deadlineNanos ? pause : Duration.ZERO;
  }

  private void sleepIfAny(Duration pause) {
    if (!pause.isZero()) {
      sleep(pause);
    }
  }

  /** {@code step} at once when {@code pause} is zero, else after it on {@code executor}. */
  private <T> CompletableFuture<T> after(Duration pause, Executor executor, Supplier<? extends CompletableFuture<T>> step) {
    return pause.isZero()
        ? CompletableFutures.start(step)
        : delayer.delay(pause, executor).thenCompose(elapsed -> CompletableFutures.start(step));
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

  /** Whether this operation holds a stream's turn, or runs inside an operation that does. */
  private boolean inTurn() {
    return turn != null || insideTurn;
  }

  /**
   * Makes this the budget of an operation started inside {@code outer}'s decide function: while
   * {@code outer} holds a turn (or runs inside one), this one waits in no line.
   */
  void startInside(RetryBudget outer) {
    insideTurn = outer.inTurn();
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
    // An asynchronous writer waits in line until its deadline instead (retryConflictAsync, awaitTurnAsync):
    // it holds no thread meanwhile, and its decide function never blocks, so no writer before it can be
    // waiting for it, unless a synchronous decide function waits for an asynchronous command on the same
    // stream, which then goes on when its deadline comes. Going on without the turn after the longest
    // pause made a burst of 16 asynchronous commands on one stream collide again.
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
   * Counts a failed attempt of kind {@code kind} as {@link #retry(FailureKind, Throwable)} does, but does
   * not wait: returns the pause to wait before the next attempt, empty when the budget is spent. For
   * callers that must not block a thread (asynchronous operations wait on a delayed executor); a version
   * conflict pauses with the conflict backoff (a command's conflict goes to {@link #retryConflictAsync}).
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

  /**
   * Counts a failed attempt of kind {@code kind} that is not tried again whatever the budget holds (a
   * {@link FailureKind#FATAL} failure), so that the observer hears of it; waits for nothing.
   */
  public void failedForGood(FailureKind kind, Throwable cause) {
    failedAttempts++;
    observer.failed(kind, failedAttempts, Failures.describe(cause), Optional.empty());
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
