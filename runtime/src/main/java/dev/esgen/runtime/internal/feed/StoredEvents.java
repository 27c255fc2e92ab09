package dev.esgen.runtime.internal.feed;

import java.util.List;
import java.util.Objects;

/**
 * The events one stored item holds: a journal event item holds one, a tip or a calved batch several, in
 * seq_nr order without gaps.
 *
 * <pre>{@code
 * Optional<StoredEvents> found = EventItems.parse(item, "counter"::equals);
 * found.ifPresent(events -> offered.addAll(events.events()));
 * }</pre>
 *
 * @param aggregateName the aggregate type's stored name
 * @param aggregateId the stream's id string
 * @param events the item's events, oldest first
 */
public record StoredEvents(String aggregateName, String aggregateId, List<StoredEvent> events) {

  public StoredEvents {
    Objects.requireNonNull(aggregateName, "aggregateName");
    Objects.requireNonNull(aggregateId, "aggregateId");
    events = List.copyOf(events);
  }
}
