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
 * <p>A writer that decides on the state its store remembers (the state cache) appends in one request, so
 * once it has won it keeps winning while it has commands: a writer it beat needs a read and a write, and
 * between two of the winner's appends there is no time for both. Pausing before each command would only
 * let the remembered state go stale (measured: three times the requests per command), and a writer whose
 * store never lost on the stream cannot know of the others at all (a refused write leaves no trace). So
 * two things bound the tail there instead. A store that lost a write to another process on the stream
 * within {@link ContendedStreams#othersFor} leaves a gap, a polite pause, before every {@link #GAP_EVERY}-th
 * command it decides on remembered state ({@link #yields}); the writer that gets in through it makes the
 * winner lose, which renews the memory, and the stream changes hands in runs of a few commands. And a
 * writer deciding on remembered state that has lost a quarter of its attempts on one command waits at
 * least half the policy's maximum delay from then on ({@link #patientPause}): against a winner that does
 * not know of it, retrying sooner only spends attempts, so it keeps the rest for when the winner's
 * commands run out or it leaves a gap.
 *
 * <pre>{@code
 * Duration pause = ContentionPacing.conflictPause(policy, previous, contention.cycleNanos(), random);
 * Duration polite = ContentionPacing.politePause(policy, contention.cycleNanos(), random);
 * boolean gap = ContentionPacing.yields(contention);         // before a command on remembered state
 * Duration patient = ContentionPacing.patientPause(policy, random);
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

  /**
   * A store that lost to another process on a stream lately leaves a gap before every this many commands
   * it decides on remembered state there. Measured with four stores with the state cache on one stream, 4 ×
   * 100 commands (docs/performance.md): a gap before every command kept every command within 9 attempts
   * but cost 3.4 to 4.2 requests per command and a median of 240 to 330 ms; with patient losers, a gap
   * before every 2nd cost 2.2 to 2.6 requests and before every 4th 1.6 to 1.9, the most attempts 7 to 12
   * either way.
   */
  static final int GAP_EVERY = 4;

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

  /**
   * Before a new command decided on remembered state on a stream where {@code contention}'s store lost
   * to another process lately: counts it, and returns whether a gap (a {@link #politePause}) comes first.
   */
  static boolean yields(ContendedStreams.Contention contention) {
    return contention.rememberedRunEnds(GAP_EVERY);
  }

  /**
   * Whether a writer deciding on remembered state that has lost {@code failedAttempts} times on one command
   * waits patiently ({@link #patientPause}) from now on: once a quarter of the policy's attempts are spent.
   */
  static boolean patient(RetryPolicy policy, int failedAttempts) {
    return failedAttempts >= Math.max(1, policy.maxAttempts() / 4);
  }

  /** A patient writer's pause after a conflict: uniformly random from half the policy's maximum delay to all of it. */
  static Duration patientPause(RetryPolicy policy, RandomGenerator random) {
    long max = policy.maxDelay().toNanos();
    return Duration.ofNanos(max - random.nextLong(max / 2 + 1));
  }
}
