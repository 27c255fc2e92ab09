package dev.esgen.runtime.internal.feed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Collects the events a batch holds (decoded stream records, or a page of scanned items) per stream, in
 * the order streams first appear, each seq_nr once however often the batch repeats it; then turns them
 * into one {@link Delivery} per stream and projection that subscribes to its aggregate type.
 *
 * <pre>{@code
 * OfferedEvents offered = new OfferedEvents();
 * records.forEach(r -> decoder.decode(r).ifPresent(offered::add));
 * List<Delivery> deliveries = offered.deliveries(subscriptionsByAggregate::get);
 * }</pre>
 */
public final class OfferedEvents {

  private record Stream(String aggregateName, String aggregateId, NavigableMap<Long, StoredEvent> events) {}

  private final Map<PositionKey, Stream> streams = new LinkedHashMap<>();

  /** Adds the events of one item. */
  public void add(StoredEvents item) {
    if (item.events().isEmpty()) {
      return;
    }
    // Keyed like a position without projection: the stream's name is what tells two streams apart.
    PositionKey stream = PositionKey.of("", item.aggregateName(), item.aggregateId());
    Stream offered = streams.computeIfAbsent(stream,
        key -> new Stream(item.aggregateName(), item.aggregateId(), new TreeMap<>()));
    for (StoredEvent event : item.events()) {
      offered.events().putIfAbsent(event.seqNr(), event);
    }
  }

  /** Whether no event was added. */
  public boolean isEmpty() {
    return streams.isEmpty();
  }

  /** For every stream, one delivery per subscription {@code subscriptionsOf} names for its aggregate type. */
  public List<Delivery> deliveries(Function<String, List<Subscription<?, ?, ?>>> subscriptionsOf) {
    List<Delivery> deliveries = new ArrayList<>();
    for (Stream stream : streams.values()) {
      for (Subscription<?, ?, ?> subscription : subscriptionsOf.apply(stream.aggregateName())) {
        deliveries.add(new Delivery(subscription, stream.aggregateId(), stream.events()));
      }
    }
    return deliveries;
  }
}
