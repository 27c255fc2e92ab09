package dev.esgen.runtime.internal.storage;

import java.util.Objects;

/**
 * A stream as a {@link StorageLayout} read or wrote it: the folded state, the version that guards the
 * next write, the last event's seq_nr, and the layout's own bookkeeping.
 *
 * <pre>{@code
 * LoadedStream<BankAccount> loaded = layout.load(definition, id).orElseThrow();
 * long nextSeqNr = loaded.seqNr() + 1;
 * }</pre>
 *
 * @param state the aggregate after every event up to {@code seqNr}
 * @param version the optimistic-lock version: 1 after the creating append, +1 per append
 * @param seqNr the seq_nr of the stream's last event (events are numbered from 1)
 * @param position what the layout needs for the next append
 * @param <A> the aggregate type
 */
public record LoadedStream<A>(A state, long version, long seqNr, StreamPosition position) {

  public LoadedStream {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(position, "position");
  }

  /**
   * Whether a load may fold on from this stream, remembered earlier, rather than from the snapshot at
   * {@code snapshotSeqNr} (0 when there is none to use) of the stream as read now, whose last event is
   * {@code lastSeqNr} at {@code version}: it is no further back than that snapshot and not past the
   * stream's end. Events are never rewritten, so a state folded to seq_nr {@code n} is the stream's state
   * at {@code n} whatever was appended since.
   */
  public boolean canResumeFold(long snapshotSeqNr, long lastSeqNr, long version) {
    return seqNr >= snapshotSeqNr && seqNr <= lastSeqNr && this.version <= version;
  }
}
