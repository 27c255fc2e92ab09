package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.history.EventMetadata;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One atomic append to a stream, as a repository hands it to a {@link StorageLayout}.
 *
 * <p>Its {@code appendId} is stored with the first of its events, so that after a failure whose outcome
 * is unknown the layout can read the stream back and tell whether <em>this</em> append landed. A
 * {@code commandId}, when given, is stored in a command record in the same atomic write, so that a repeat
 * of the command is recognised later (see {@link dev.esgen.runtime.internal.command.CommandRecords}).
 *
 * <pre>{@code
 * AppendRequest<BankAccount, AccountId, AccountEvent> request =
 *     new AppendRequest<>(definition, id, Optional.of(loaded), List.of(deposited), newState);
 * }</pre>
 *
 * @param definition the aggregate type
 * @param id the stream's aggregate id
 * @param aggregateId {@code id}'s string ({@code definition.keys().idString(id)}), as keys and errors name
 *     the stream: handed over by the repository, so that the parts of the write that name it do not work it
 *     out again
 * @param current the stream as loaded, on which this append builds; empty to create the stream
 * @param events the new events, in order; at least one
 * @param newState the state after {@code events}, which the layout may store as a snapshot
 * @param appendId a fresh id for this append ({@link AppendIds#next()})
 * @param commandId the caller's command id, if the append carries one
 * @param metadata stored with every event of the append, unless empty
 * @param <A> the aggregate type
 * @param <I> its id type
 * @param <E> the sealed root of its events
 */
public record AppendRequest<A, I, E>(
    AggregateDefinition<A, I, E> definition,
    I id,
    String aggregateId,
    Optional<LoadedStream<A>> current,
    List<E> events,
    A newState,
    String appendId,
    Optional<String> commandId,
    EventMetadata metadata) {

  public AppendRequest {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(aggregateId, "aggregateId");
    Objects.requireNonNull(current, "current");
    events = List.copyOf(events);
    if (events.isEmpty()) {
      throw new IllegalArgumentException("an append needs at least one event");
    }
    Objects.requireNonNull(newState, "newState");
    Objects.requireNonNull(appendId, "appendId");
    Objects.requireNonNull(commandId, "commandId");
    Objects.requireNonNull(metadata, "metadata");
  }

  /** An append with a fresh append id, no command id and no metadata. */
  public AppendRequest(
      AggregateDefinition<A, I, E> definition, I id, Optional<LoadedStream<A>> current, List<E> events, A newState) {
    this(definition, id, definition.keys().idString(id), current, events, newState, AppendIds.next(), Optional.empty(),
        EventMetadata.none());
  }

  /** The version the append is conditioned on: the loaded stream's, 0 for a create. */
  public long expectedVersion() {
    return current.map(LoadedStream::version).orElse(0L);
  }

  /** The seq_nr of the stream's last event before this append, 0 for a create. */
  public long baseSeqNr() {
    return current.map(LoadedStream::seqNr).orElse(0L);
  }

  /** Whether this append creates the stream. */
  public boolean creating() {
    return current.isEmpty();
  }
}
