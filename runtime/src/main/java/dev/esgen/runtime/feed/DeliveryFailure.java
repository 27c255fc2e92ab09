package dev.esgen.runtime.feed;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One failed attempt to deliver an event to a projection, as a {@link FeedListener} hears of it: the
 * stream waits at that event until an attempt succeeds.
 *
 * <pre>{@code
 * public void onDeliveryFailure(DeliveryFailure f) {
 *   log.warn("{} stuck at {} {} seq {} (attempt {}): {}", f.projection(), f.aggregateType(), f.aggregateId(),
 *       f.seqNr(), f.attempt(), f.failure().getClass().getSimpleName());
 * }
 * }</pre>
 *
 * @param projection the projection's name
 * @param aggregateType the aggregate's stored name
 * @param aggregateId the stream's id string
 * @param seqNr the event that was not delivered
 * @param attempt how many times it has been tried, this attempt included
 * @param retryAfter the pause before the next attempt; empty when the feed gave up and throws
 * @param failure what the attempt failed with: the projection's own exception, or esgen's when the event
 *     could not be read, decoded or recorded
 */
public record DeliveryFailure(
    String projection, String aggregateType, String aggregateId, long seqNr, int attempt,
    Optional<Duration> retryAfter, Throwable failure) {

  /** Requires every component; {@code retryAfter} is empty when the feed gives up. */
  public DeliveryFailure {
    Objects.requireNonNull(projection, "projection");
    Objects.requireNonNull(aggregateType, "aggregateType");
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(retryAfter, "retryAfter");
    Objects.requireNonNull(failure, "failure");
  }

  /** Whether the feed tries again (true) or gives up and throws (false). */
  public boolean willRetry() {
    return retryAfter.isPresent();
  }
}
