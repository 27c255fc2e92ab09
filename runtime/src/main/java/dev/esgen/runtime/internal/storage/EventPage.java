package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.history.RecordedEvent;
import java.util.List;

/**
 * A slice of a stream's events as a {@link dev.esgen.runtime.internal.storage.StorageLayout} read it: the events
 * asked for, in seq_nr order without gaps, and the stream's last seq_nr at the moment of reading.
 *
 * <pre>{@code
 * EventPage<AccountEvent> page = layout.readEvents(definition, id, 1, 100).orElseThrow();
 * boolean more = page.events().size() == 100 && page.lastSeqNr() > 100;
 * }</pre>
 *
 * @param events the events from the first seq_nr asked for up to the last asked for, or the stream's end
 * @param lastSeqNr the stream's last seq_nr when it was read
 * @param <E> the sealed root of the aggregate's events
 */
public record EventPage<E>(List<RecordedEvent<E>> events, long lastSeqNr) {

  public EventPage {
    events = List.copyOf(events);
  }
}
