package dev.esgen.runtime.repository;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.storage.LoadedStream;
import java.util.Objects;
import java.util.Optional;

/**
 * An aggregate's state together with where its stream stands: the version to pass as the expected
 * version of the next {@code append}, and the seq_nr of the last event.
 *
 * <p>A {@code Versioned} returned by a repository also remembers what the storage layout read, so
 * {@link EventSourcedRepository#append(Versioned, java.util.List)} can write the next events with a
 * single request, without loading the stream again; a repository whose definition folds events with
 * other code (another replay, event codec or snapshot fingerprint) loads it first, as for one built by
 * hand. Equality compares state, version and seq_nr only.
 *
 * <pre>{@code
 * Versioned<BankAccount> current = accounts.loadVersioned(id);
 * Versioned<BankAccount> next = accounts.append(current, current.state().deposit(500));  // one write
 * accounts.append(id, current.version(), current.state().deposit(1));  // VersionConflictException
 * }</pre>
 *
 * @param <A> the aggregate type
 */
public final class Versioned<A> {

  private final A state;
  private final long version;
  private final long seqNr;
  private final LoadedStream<A> stream;
  private final AggregateDefinition<A, ?, ?> foldedBy;

  /**
   * @param state the aggregate after every event up to {@code seqNr}
   * @param version the stream's optimistic-lock version: 1 after creation, +1 per append (not per event)
   * @param seqNr the seq_nr of the stream's last event, counting events from 1
   */
  public Versioned(A state, long version, long seqNr) {
    this.state = Objects.requireNonNull(state, "state");
    this.version = version;
    this.seqNr = seqNr;
    this.stream = null;
    this.foldedBy = null;
  }

  /** What {@code foldedBy}'s repository read or wrote: {@code stream}, whose state that definition's code folded. */
  Versioned(LoadedStream<A> stream, AggregateDefinition<A, ?, ?> foldedBy) {
    this.state = stream.state();
    this.version = stream.version();
    this.seqNr = stream.seqNr();
    this.stream = stream;
    this.foldedBy = foldedBy;
  }

  /** The aggregate after every event up to {@link #seqNr()}. */
  public A state() {
    return state;
  }

  /** The stream's optimistic-lock version: 1 after creation, +1 per append (not per event). */
  public long version() {
    return version;
  }

  /** The seq_nr of the stream's last event, counting events from 1. */
  public long seqNr() {
    return seqNr;
  }

  /**
   * What the storage layout read, for an append by a repository of {@code appender}: empty for one built by
   * hand, and for one whose state other code folded, which {@code appender}'s code would not have (it would
   * be appended to, remembered and snapshotted as if it had).
   */
  Optional<LoadedStream<A>> streamFor(AggregateDefinition<A, ?, ?> appender) {
    return stream != null && StateCache.foldsAlike(foldedBy, appender) ? Optional.of(stream) : Optional.empty();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Versioned<?> that
        && state.equals(that.state)
        && version == that.version
        && seqNr == that.seqNr;
  }

  @Override
  public int hashCode() {
    return Objects.hash(state, version, seqNr);
  }

  @Override
  public String toString() {
    return "Versioned[state=" + state + ", version=" + version + ", seqNr=" + seqNr + "]";
  }
}
