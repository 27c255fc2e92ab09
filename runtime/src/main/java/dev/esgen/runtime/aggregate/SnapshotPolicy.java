package dev.esgen.runtime.aggregate;

import dev.esgen.runtime.internal.Durations;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When an aggregate's state is snapshotted and what happens to older snapshots.
 *
 * <pre>{@code
 * SnapshotPolicy policy = SnapshotPolicy.every(100).keeping(2);                     // delete the oldest
 * SnapshotPolicy expiring = SnapshotPolicy.every(100).keeping(2).expiringAfter(Duration.ofDays(30));
 * }</pre>
 *
 * @param every write a snapshot once this many events were appended since the last one (at least 1)
 * @param keep how many snapshot rows to keep (0 or more): with {@code keep > 0} every snapshot is also stored as a
 *     row at its seq_nr, the current one's included, so the current snapshot and the {@code keep - 1} before it
 *     stay readable
 * @param ttl when present, older snapshots beyond {@code keep} get a DynamoDB TTL this far ahead (positive,
 *     at most {@link #MAX_TTL})
 *     instead of being deleted
 */
public record SnapshotPolicy(int every, int keep, Optional<Duration> ttl) {

  /** The longest TTL: 36,500 days (100 years); each snapshot's expiry is its write time plus the TTL. */
  public static final Duration MAX_TTL = Duration.ofDays(36_500);

  /**
   * Checks the policy.
   *
   * @throws IllegalArgumentException when {@code every} is under 1, {@code keep} negative, or the TTL not
   *     positive or longer than {@link #MAX_TTL}
   */
  public SnapshotPolicy {
    if (every < 1) {
      throw new IllegalArgumentException("snapshot interval must be at least 1 event, was " + every);
    }
    if (keep < 0) {
      throw new IllegalArgumentException("snapshots to keep must be 0 or more, was " + keep);
    }
    Objects.requireNonNull(ttl, "ttl");
    ttl.ifPresent(
        d -> {
          if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("snapshot TTL must be positive, was " + d);
          }
          Durations.requireAtMost("snapshot TTL", d, MAX_TTL);
        });
  }

  /** Snapshot every {@code events} events, keeping no older snapshots. */
  public static SnapshotPolicy every(int events) {
    return new SnapshotPolicy(events, 0, Optional.empty());
  }

  /**
   * This policy, keeping {@code count} snapshot rows: the current snapshot's and the {@code count - 1} before
   * it (see {@code keep} above).
   */
  public SnapshotPolicy keeping(int count) {
    return new SnapshotPolicy(every, count, ttl);
  }

  /** This policy, expiring older snapshots through DynamoDB TTL instead of deleting them. */
  public SnapshotPolicy expiringAfter(Duration timeToLive) {
    return new SnapshotPolicy(every, keep, Optional.of(timeToLive));
  }
}
