package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.history.RecordedEvent;
import java.util.List;

/**
 * A slice of a stream's events as a {@link dev.esgen.runtime.internal.storage.StorageLayout} read it: what the
 * stored events asked for stand for now, in seq_nr order, and the stream's last seq_nr at the moment of
 * reading. The upcasters may have split a stored event into several (sharing its seq_nr) or dropped one
 * (leaving its seq_nr out), so the count of events says nothing of how far the page got: the seq_nrs asked
 * for do.
 *
 * <pre>{@code
 * EventPage<AccountEvent> page = layout.readEvents(definition, id, 1, 100).orElseThrow();
 * boolean more = page.lastSeqNr() > 100;
 * }</pre>
 *
 * @param events the events of the stored events from the first seq_nr asked for up to the last asked for,
 *     or the stream's end
 * @param lastSeqNr the stream's last seq_nr when it was read
 * @param <E> the sealed root of the aggregate's events
 */
public record EventPage<E>(List<RecordedEvent<E>> events, long lastSeqNr) {

  public EventPage {
    events = List.copyOf(events);
  }
}
