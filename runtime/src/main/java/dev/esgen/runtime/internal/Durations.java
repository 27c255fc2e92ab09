package dev.esgen.runtime.internal;

import java.time.Duration;

/**
 * The upper bound every configured duration has, checked and worded alike wherever a setting takes one:
 * past it, adding the duration to a clock's instant would overflow, or it would mean nothing DynamoDB keeps.
 *
 * <pre>{@code
 * Durations.requireAtMost("deadline", deadline, RetryPolicy.MAX_DURATION);
 * // IllegalArgumentException: "deadline must be at most 365 days, was PT9000H"
 * }</pre>
 */
public final class Durations {

  private Durations() {}

  /**
   * {@code duration}, when it is at most {@code max}.
   *
   * @throws IllegalArgumentException naming {@code setting}, the bound in days and {@code duration}
   */
  public static Duration requireAtMost(String setting, Duration duration, Duration max) {
    if (duration.compareTo(max) > 0) {
      throw new IllegalArgumentException(setting + " must be at most " + max.toDays() + " days, was " + duration);
    }
    return duration;
  }
}
