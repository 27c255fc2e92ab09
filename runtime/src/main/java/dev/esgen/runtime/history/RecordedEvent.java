package dev.esgen.runtime.history;

import java.time.Instant;
import java.util.Objects;

/**
 * An event as it is stored: which stream it belongs to, where in it, under which type name, when it was
 * appended and with which metadata, and the event itself, decoded by the generated codec.
 *
 * <p>The event is what the stored one stands for now, after the upcasters ran: its type name is the one
 * the current code stores it under, also for an event stored under an alias or an older type. A stored
 * event of a type that was split stands for several events, which share its seq_nr (in order); one an
 * upcaster dropped gives none, leaving its seq_nr out. Seq_nrs are positions in the stored stream and
 * never renumbered.
 *
 * <pre>{@code
 * try (Stream<RecordedEvent<AccountEvent>> events = accounts.events(id)) {
 *   events.forEach(e -> System.out.printf("%d %s %s%n", e.seqNr(), e.eventType(), e.recordedAt()));
 * }
 * }</pre>
 *
 * @param aggregateType the aggregate's stored name, e.g. {@code "bank-account"}
 * @param aggregateId the stream's id string
 * @param seqNr the stored event's position in its stream, from 1
 * @param eventType the event's type name ({@code @EventType}) in the current code
 * @param recordedAt when the event was appended, from the store's clock
 * @param metadata what the append that stored the event said about itself
 * @param event the decoded event
 * @param <E> the sealed root of the aggregate's events
 */
public record RecordedEvent<E>(
    String aggregateType, String aggregateId, long seqNr, String eventType, Instant recordedAt,
    EventMetadata metadata, E event) {

  /** Requires every component. */
  public RecordedEvent {
    Objects.requireNonNull(aggregateType, "aggregateType");
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(eventType, "eventType");
    Objects.requireNonNull(recordedAt, "recordedAt");
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(event, "event");
  }
}
