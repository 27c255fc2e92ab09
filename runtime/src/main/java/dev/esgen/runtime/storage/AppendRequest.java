package dev.esgen.runtime.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One atomic append to a stream, as a repository hands it to a {@link StorageLayout}.
 *
 * <pre>{@code
 * AppendRequest<BankAccount, AccountId, AccountEvent> request =
 *     new AppendRequest<>(definition, id, Optional.of(loaded), List.of(deposited), newState);
 * }</pre>
 *
 * @param definition the aggregate type
 * @param id the stream's aggregate id
 * @param current the stream as loaded, on which this append builds; empty to create the stream
 * @param events the new events, in order; at least one
 * @param newState the state after {@code events}, which the layout may store as a snapshot
 * @param <A> the aggregate type
 * @param <I> its id type
 * @param <E> the sealed root of its events
 */
public record AppendRequest<A, I, E>(
    AggregateDefinition<A, I, E> definition,
    I id,
    Optional<LoadedStream<A>> current,
    List<E> events,
    A newState) {

  public AppendRequest {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(current, "current");
    events = List.copyOf(events);
    if (events.isEmpty()) {
      throw new IllegalArgumentException("an append needs at least one event");
    }
    Objects.requireNonNull(newState, "newState");
  }
}
