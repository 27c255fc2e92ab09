package dev.esgen.runtime.repository;

import dev.esgen.runtime.internal.storage.LoadedStream;
import java.util.Objects;
import java.util.Optional;

/**
 * An aggregate's state together with where its stream stands: the version to pass as the expected
 * version of the next {@code append}, and the seq_nr of the last event.
 *
 * <p>A {@code Versioned} returned by a repository also remembers what the storage layout read, so
 * {@link EventSourcedRepository#append(Versioned, java.util.List)} can write the next events with a
 * single request, without loading the stream again. Equality compares state, version and seq_nr only.
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
  }

  Versioned(LoadedStream<A> stream) {
    this.state = stream.state();
    this.version = stream.version();
    this.seqNr = stream.seqNr();
    this.stream = stream;
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

  /** What the storage layout read, when a repository made this; empty for one built by hand. */
  Optional<LoadedStream<A>> stream() {
    return Optional.ofNullable(stream);
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
