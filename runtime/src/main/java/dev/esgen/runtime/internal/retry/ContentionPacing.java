package dev.esgen.runtime.internal.retry;

import dev.esgen.runtime.config.RetryPolicy;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How long writers pause on a stream that writers in other processes contend for too, measured in the
 * stream's write cycle: how long one write attempt on it takes, from its read to DynamoDB's answer.
 *
 * <p>Between processes nothing orders the writers but the version condition and the pauses. Two habits
 * make a tail there. The writer that just won goes straight on with its next command on fresh state and
 * wins again, while the writers it beat are still pausing (the capture effect); and a writer that lost
 * several times pauses longer and longer, up to the policy's maximum delay, while fresh commands overtake
 * it. So on a contended stream both pauses are bounded by a few write cycles ({@link #CYCLES}) instead of
 * the fixed maximum: a loser comes back within the time the stream takes to change hands a few times, and
 * a winner whose store lost a write made in the stream's turn (so to another process) within
 * {@link ContendedStreams#CONTENDED_FOR} pauses a random part of that bound before its next command
 * ({@link #politePause}), a window in which the writers it beat get their write in. Measured in cycles,
 * the bound follows the machine and the network: it is shorter where requests are quick and longer where
 * they are slow.
 *
 * <pre>{@code
 * Duration pause = ContentionPacing.conflictPause(policy, previous, contention.cycleNanos(), random);
 * Duration polite = ContentionPacing.politePause(policy, contention.cycleNanos(), random);
 * }</pre>
 */
final class ContentionPacing {

  /**
   * The bound of the pauses on a contended stream, in write cycles. Measured with four processes on one
   * stream on a loaded 2-core machine (docs/performance.md), fewer cycles meant more conflicts: requests
   * per command were 0.55 of an immediate-retry loop's with 4 cycles, 0.50-0.52 with 8, 0.47-0.49 with 12
   * and 0.42-0.46 with 16, while the 99th percentile stayed under the loop's in all but one of 12 runs.
   */
  static final int CYCLES = 16;

  private ContentionPacing() {}

  /**
   * The longest pause on a stream whose write cycle is {@code cycleNanos}: {@link #CYCLES} cycles, at
   * least the policy's base delay and at most its maximum delay; the maximum delay while no cycle was
   * measured ({@code cycleNanos} zero).
   */
  static Duration bound(RetryPolicy policy, long cycleNanos) {
    long max = policy.maxDelay().toNanos();
    if (cycleNanos <= 0 || cycleNanos > max / CYCLES) {
      return policy.maxDelay();
    }
    return Duration.ofNanos(Math.min(max, Math.max(policy.baseDelay().toNanos(), cycleNanos * CYCLES)));
  }

  /**
   * The pause after a version conflict when the pause before it was {@code previous}: the policy's
   * decorrelated jitter ({@link RetryPolicy#delayAfterConflict}), capped at {@link #bound}.
   */
  static Duration conflictPause(RetryPolicy policy, Duration previous, long cycleNanos, RandomGenerator random) {
    return policy.delayAfterConflict(previous, bound(policy, cycleNanos), random);
  }

  /**
   * The pause before a new command of a writer whose store lost a write on the stream lately: uniformly
   * random up to {@link #bound}.
   */
  static Duration politePause(RetryPolicy policy, long cycleNanos, RandomGenerator random) {
    return Duration.ofNanos(random.nextLong(bound(policy, cycleNanos).toNanos() + 1));
  }
}
