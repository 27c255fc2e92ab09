package dev.esgen.runtime.config;

import dev.esgen.runtime.internal.Durations;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The one retry budget of a repository operation: how many attempts in all, how long to wait between
 * them, and how long the whole operation may take.
 *
 * <p>Every failure an operation meets draws on the same budget, whatever its kind: a version conflict
 * that makes {@code transact} reload and decide again, throttling or a transaction conflict that makes a
 * request go out again, a lost response that makes esgen read back what was stored. esgen switches off
 * the AWS SDK's own retries for its requests, so attempts do not multiply across layers. When either
 * limit is reached the operation fails with the exception of its last failure (see
 * {@code docs/reliability.md} for what each one says about what was stored).
 *
 * <p>The wait is exponential backoff with full jitter: after the {@code n}-th failed attempt the writer
 * sleeps a uniformly random time between 0 and {@code min(maxDelay, baseDelay * 2^n)}. Retrying at once
 * lets the same writers collide again and again on a hot aggregate; spreading them out randomly lets
 * one of them through each round. After a version conflict the wait is decorrelated jitter instead
 * ({@link #delayAfterConflict}): at least {@code baseDelay}, at most three times the previous wait, so a
 * writer that lost keeps a share of the next rounds rather than drifting to the cap. Writers of one store
 * on one stream do not back off from each other at all once the stream is contended: they take turns
 * (see {@code docs/operations.md}). Against writers in other processes, on a stream a store without the
 * state cache contends for, the conflict wait is capped at a few times what one write attempt on that
 * stream takes (measured as the store writes it, never more than {@code maxDelay}); and after a write of
 * the store lost to another process there, a new command of a store with no writer of its own in line
 * first pauses a random part of that cap, so that the writers it beat get their write in rather than
 * starve behind it. A stream no write of the store lost on never pauses. No wait starts that would end
 * past the deadline.
 *
 * <pre>{@code
 * RetryPolicy policy = RetryPolicy.defaults();        // 20 attempts, 10 ms base, 500 ms cap, 15 s in all
 * RetryPolicy patient = new RetryPolicy(40, Duration.ofMillis(5), Duration.ofMillis(500), Duration.ofSeconds(30));
 * StoreConfig config = StoreConfig.defaults().withRetryPolicy(patient);
 * }</pre>
 *
 * @param maxAttempts attempts in all, the first included (at least 1; 1 means no retry)
 * @param baseDelay the bound of the first wait before doubling (at most {@link #MAX_DURATION})
 * @param maxDelay the largest bound any wait may have (at most {@link #MAX_DURATION})
 * @param deadline how long an operation may take in all, its requests and waits included (positive, at
 *     most {@link #MAX_DURATION})
 */
public record RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay, Duration deadline) {

  /** The deadline of {@link #defaults()} and of policies made without one. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(15);

  /**
   * The longest delay or deadline a policy takes: 365 days. esgen counts them in nanoseconds from
   * {@link System#nanoTime()}; far longer ones (say {@code ChronoUnit.FOREVER}) would overflow there.
   */
  public static final Duration MAX_DURATION = Duration.ofDays(365);

  /**
   * Checks the policy.
   *
   * @throws IllegalArgumentException when {@code maxAttempts} is under 1, a delay negative, the deadline not
   *     positive, or a duration longer than {@link #MAX_DURATION}
   */
  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    Objects.requireNonNull(baseDelay, "baseDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    Objects.requireNonNull(deadline, "deadline");
    if (baseDelay.isNegative() || maxDelay.isNegative()) {
      throw new IllegalArgumentException("delays must not be negative: " + baseDelay + ", " + maxDelay);
    }
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("the deadline must be positive, was " + deadline);
    }
    Durations.requireAtMost("baseDelay", baseDelay, MAX_DURATION);
    Durations.requireAtMost("maxDelay", maxDelay, MAX_DURATION);
    Durations.requireAtMost("deadline", deadline, MAX_DURATION);
  }

  /** A policy with the {@link #DEFAULT_DEADLINE}. */
  public RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {
    this(maxAttempts, baseDelay, maxDelay, DEFAULT_DEADLINE);
  }

  /**
   * 20 attempts, waits bounded by 10 ms doubling up to 500 ms, 15 s in all. Measured with four writers
   * hammering one aggregate on a loaded 2-core machine, 10 attempts with a 1 s cap let about one command
   * in 400 give up; a lower cap keeps a writer that lost several times from waiting far longer than the
   * fresh writers it competes with, and twice the attempts leave room for bad luck (at most about 7.6 s
   * of waiting, inside the deadline).
   */
  public static RetryPolicy defaults() {
    return new RetryPolicy(20, Duration.ofMillis(10), Duration.ofMillis(500), DEFAULT_DEADLINE);
  }

  /** No retries: the first failure is reported. */
  public static RetryPolicy noRetries() {
    return new RetryPolicy(1, Duration.ZERO, Duration.ZERO, DEFAULT_DEADLINE);
  }

  /** This policy with another overall deadline. */
  public RetryPolicy withDeadline(Duration newDeadline) {
    return new RetryPolicy(maxAttempts, baseDelay, maxDelay, newDeadline);
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

  /**
   * The time to wait after a version conflict, when the wait before it was {@code previous} (zero before
   * the first): decorrelated jitter, uniformly random between {@code baseDelay} and three times the
   * previous wait (at least {@code baseDelay}), capped at {@code maxDelay}.
   */
  public Duration delayAfterConflict(Duration previous, RandomGenerator random) {
    return delayAfterConflict(previous, maxDelay, random);
  }

  /**
   * As {@link #delayAfterConflict(Duration, RandomGenerator)}, capped at {@code cap} rather than
   * {@code maxDelay} when {@code cap} is shorter: on a stream other processes contend for too, esgen caps
   * the wait at a few times what one write on the stream takes (see {@code docs/operations.md}).
   */
  public Duration delayAfterConflict(Duration previous, Duration cap, RandomGenerator random) {
    long capNanos = Math.min(maxDelay.toNanos(), cap.toNanos());
    long baseNanos = Math.min(baseDelay.toNanos(), capNanos);
    long previousNanos = Math.max(baseNanos, previous.toNanos());
    long upper = previousNanos > capNanos / 3 ? capNanos : previousNanos * 3;
    return upper <= baseNanos ? Duration.ofNanos(baseNanos) : Duration.ofNanos(random.nextLong(baseNanos, upper + 1));
  }
}
