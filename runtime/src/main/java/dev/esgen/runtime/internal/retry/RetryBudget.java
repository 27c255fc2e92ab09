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
 * thread.
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

  private final RetryPolicy policy;
  private final Observer observer;
  private final long deadlineNanos;
  private int failedAttempts;

  public RetryBudget(RetryPolicy policy, Observer observer) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.observer = Objects.requireNonNull(observer, "observer");
    this.deadlineNanos = System.nanoTime() + policy.deadline().toNanos();
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
    failedAttempts++;
    Duration pause = policy.delayAfter(failedAttempts, ThreadLocalRandom.current());
    boolean allowed = failedAttempts < policy.maxAttempts() && System.nanoTime() + pause.toNanos() < deadlineNanos;
    observer.failed(kind, failedAttempts, errorCode, allowed ? Optional.of(pause) : Optional.empty());
    return allowed && sleep(pause);
  }

  /** How many attempts have failed so far. */
  public int failedAttempts() {
    return failedAttempts;
  }

  /** The policy this budget draws on. */
  public RetryPolicy policy() {
    return policy;
  }

  private static boolean sleep(Duration pause) {
    try {
      Thread.sleep(pause.toMillis(), pause.toNanosPart() % 1_000_000);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
