package dev.esgen.runtime.internal.feed;

import java.util.Collections;
import java.util.NavigableMap;
import java.util.Objects;

/**
 * What one projection is to take of one stream: the events a batch offered, by seq_nr, the last of them
 * being how far the stream is to get. Events the batch lacks below that are read from the store.
 *
 * <pre>{@code
 * Delivery delivery = new Delivery(subscription, "42", new TreeMap<>(Map.of(7L, stored)));
 * PositionKey key = delivery.key();
 * }</pre>
 *
 * @param subscription the projection's handler of the stream's aggregate type
 * @param aggregateId the stream's id string
 * @param offered the events the batch holds, by seq_nr; not empty
 */
public record Delivery(
    Subscription<?, ?, ?> subscription, String aggregateId, NavigableMap<Long, StoredEvent> offered) {

  public Delivery {
    Objects.requireNonNull(subscription, "subscription");
    Objects.requireNonNull(aggregateId, "aggregateId");
    if (offered.isEmpty()) {
      throw new IllegalArgumentException("a delivery offers at least one event");
    }
    offered = Collections.unmodifiableNavigableMap(offered);
  }

  /** The projection's position in the stream. */
  public PositionKey key() {
    return subscription.positionIn(aggregateId);
  }

  /** The seq_nr the stream is to reach: the last offered. */
  public long target() {
    return offered.lastKey();
  }
}
