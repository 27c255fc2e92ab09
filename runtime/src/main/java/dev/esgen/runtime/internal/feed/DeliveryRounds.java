package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.feed.DeliveryFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Runs a batch's deliveries in rounds: every delivery once, then, after a pause, again those that got
 * stuck, as often as the {@link RetryPolicy} allows. A stuck stream waits at its event while the others
 * go on, and each round starts again from the stored position, so no later event of a stream overtakes
 * the one it waits at. When attempts or time run out, or a stream is stuck on a table that does not
 * exist (which no wait brings), the batch fails with a {@link ProjectionFailedException} for the first
 * stuck stream (the others' suppressed in it); what every stream took before is recorded, so that the
 * batch sent again delivers only the rest.
 *
 * <p>Positions are read for the whole batch at once (one {@code BatchGetItem} per 100 streams), each
 * delivery holding its stream's lock. A position read before a delivery from elsewhere in this feed
 * (a replay, another shard) ran in the same lock stripe is read again under the lock, as it may be stale.
 *
 * <pre>{@code
 * DeliveryRounds rounds = new DeliveryRounds(deliverer, positions, locks, policy, reporter);
 * long delivered = rounds.run(offered.deliveries(subscriptions::of));
 * }</pre>
 */
public final class DeliveryRounds {

  /**
   * What a batch delivered.
   *
   * @param streams the positions that moved
   * @param events how many events the projections took
   */
  public record Delivered(Set<PositionKey> streams, long events) {

    public Delivered {
      streams = Set.copyOf(streams);
    }
  }

  private final StreamDeliverer deliverer;
  private final PositionStore positions;
  private final StreamLocks locks;
  private final RetryPolicy policy;
  private final FeedReporter reporter;

  public DeliveryRounds(
      StreamDeliverer deliverer,
      PositionStore positions,
      StreamLocks locks,
      RetryPolicy policy,
      FeedReporter reporter) {
    this.deliverer = Objects.requireNonNull(deliverer, "deliverer");
    this.positions = Objects.requireNonNull(positions, "positions");
    this.locks = Objects.requireNonNull(locks, "locks");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.reporter = Objects.requireNonNull(reporter, "reporter");
  }

  /**
   * Delivers {@code deliveries}.
   *
   * @throws ProjectionFailedException when a delivery was still stuck after the last attempt
   */
  public Delivered run(List<Delivery> deliveries) {
    long deadline = System.nanoTime() + policy.deadline().toNanos();
    // Each stripe's version as of the batch read, moved on by this batch's own deliveries; a stripe whose
    // version moved otherwise had a delivery from elsewhere, and its batch-read positions are not trusted.
    Map<Integer, Long> versions = new HashMap<>();
    Set<PositionKey> keys = new HashSet<>();
    for (Delivery delivery : deliveries) {
      keys.add(delivery.key());
      versions.put(StreamLocks.stripe(delivery.key()), locks.version(delivery.key()));
    }
    Set<Integer> touched = new HashSet<>();
    Map<PositionKey, Long> read = readOrNone(keys);
    Set<PositionKey> streams = new HashSet<>();
    long events = 0;
    List<Delivery> pending = deliveries;
    for (int attempt = 1; ; attempt++) {
      List<Delivery> stuck = new ArrayList<>();
      List<StreamDeliverer.Stuck> where = new ArrayList<>();
      for (Delivery delivery : pending) {
        PositionKey key = delivery.key();
        int stripe = StreamLocks.stripe(key);
        boolean fresh = attempt == 1;
        StreamDeliverer.Outcome outcome = locks.deliver(key, version -> {
          if (version != versions.get(stripe)) {
            touched.add(stripe);
          }
          versions.put(stripe, version + 1);
          long position;
          try {
            position = fresh && !touched.contains(stripe) && read.containsKey(key) ? read.get(key) : positions.read(key);
          } catch (RuntimeException e) {
            // A store failure: the stream waits at the first event offered and is tried again, as after a
            // failing handler.
            return new StreamDeliverer.Outcome(0, Optional.of(new StreamDeliverer.Stuck(
                delivery.offered().firstKey(), delivery.offered().firstEntry().getValue().eventType(), e)));
          }
          return deliverer.deliver(delivery, position);
        });
        events += outcome.delivered();
        if (outcome.delivered() > 0) {
          streams.add(key);
        }
        if (outcome.stuck().isPresent()) {
          stuck.add(delivery);
          where.add(outcome.stuck().get());
        }
      }
      if (stuck.isEmpty()) {
        return new Delivered(streams, events);
      }
      Duration pause = policy.delayAfter(attempt, ThreadLocalRandom.current());
      // A missing table (the positions table, or a read model's) does not appear by waiting: no retry.
      boolean again = attempt < policy.maxAttempts() && System.nanoTime() + pause.toNanos() < deadline
          && where.stream().noneMatch(at -> missingTable(at.cause()));
      for (int k = 0; k < stuck.size(); k++) {
        Delivery delivery = stuck.get(k);
        reporter.deliveryFailed(new DeliveryFailure(delivery.subscription().projection(),
            delivery.subscription().definition().name(), delivery.aggregateId(), where.get(k).seqNr(), attempt,
            again ? Optional.of(pause) : Optional.empty(), where.get(k).cause()));
      }
      if (!again || !sleep(pause)) {
        throw failure(stuck, where, attempt);
      }
      pending = stuck;
    }
  }

  /**
   * The positions of {@code keys}, read in batches; none when the store fails, and then each delivery
   * reads its own, and waits to be tried again if that fails too.
   */
  private Map<PositionKey, Long> readOrNone(Set<PositionKey> keys) {
    try {
      return positions.read(keys);
    } catch (RuntimeException e) {
      return Map.of();
    }
  }

  private static ProjectionFailedException failure(
      List<Delivery> stuck, List<StreamDeliverer.Stuck> where, int attempts) {
    ProjectionFailedException first = null;
    for (int k = 0; k < stuck.size(); k++) {
      Delivery delivery = stuck.get(k);
      StreamDeliverer.Stuck at = where.get(k);
      ProjectionFailedException failure = new ProjectionFailedException(delivery.subscription().projection(),
          delivery.subscription().definition().name(), delivery.aggregateId(), at.seqNr(), at.eventType(), attempts,
          at.cause());
      if (first == null) {
        first = failure;
      } else {
        first.addSuppressed(failure);
      }
    }
    return first;
  }

  private static boolean missingTable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof MissingTableException || cause instanceof ResourceNotFoundException) {
        return true;
      }
    }
    return false;
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
