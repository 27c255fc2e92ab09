package dev.esgen.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import java.time.Duration;

/**
 * How many records an invocation may hand over next, judged by its remaining time: nothing more once
 * the time left falls below the safety margin, and otherwise a part of the batch that the time above
 * the margin fits at the pace of the records handed over so far.
 *
 * <p>The first part is one record, whatever the time: an invocation always moves its shard on. Each
 * later part is at most as large as all the parts before it (1, 1, 2, 4, ... records), so that one slow
 * part cannot run far past the estimate that the first fast records gave. Without a {@link Context} (a
 * test calling the function directly) or a margin ({@link #unlimited()}) there is no limit: the whole
 * batch is one part.
 *
 * <pre>{@code
 * HandOverPace pace = HandOverPace.start(context, margin);
 * int part = pace.nextPart(handed, records.size() - handed);   // 0: stop, report records.get(handed)
 * }</pre>
 */
final class HandOverPace {

  private final Context context;
  private final long marginMillis;
  private final long startMillis;

  private HandOverPace(Context context, long marginMillis) {
    this.context = context;
    this.marginMillis = marginMillis;
    this.startMillis = context == null ? 0 : context.getRemainingTimeInMillis();
  }

  /** The pace of an invocation that has {@code context}'s remaining time now; {@code null}: no limit. */
  static HandOverPace start(Context context, Duration margin) {
    return new HandOverPace(context, margin.toMillis());
  }

  /** No limit: the whole batch is one part. */
  static HandOverPace unlimited() {
    return new HandOverPace(null, 0);
  }

  /** The safety margin, in milliseconds. */
  long marginMillis() {
    return marginMillis;
  }

  /** The time the invocation had left when it started, in milliseconds; 0 without a context. */
  long startMillis() {
    return startMillis;
  }

  /** Whether the invocation started with less time left than the margin (its timeout is too short). */
  boolean startedUnderMargin() {
    return context != null && startMillis < marginMillis;
  }

  /** The time left now, in milliseconds; {@link Long#MAX_VALUE} without a context. */
  long remainingMillis() {
    return context == null ? Long.MAX_VALUE : context.getRemainingTimeInMillis();
  }

  /** Whether the time left now is at least the margin. */
  boolean timeLeft() {
    return remainingMillis() >= marginMillis;
  }

  /**
   * The number of records to hand over next, after {@code handed} were, with {@code pending} to go; 0
   * when the time left is below the margin.
   */
  int nextPart(int handed, int pending) {
    if (context == null) {
      return pending;
    }
    if (handed == 0) {
      return 1;
    }
    long remaining = remainingMillis();
    if (remaining < marginMillis) {
      return 0;
    }
    long spent = startMillis - remaining;
    long fits = spent <= 0 ? Long.MAX_VALUE : (remaining - marginMillis) * handed / spent;
    return (int) Math.max(1, Math.min(fits, Math.min(handed, pending)));
  }
}
