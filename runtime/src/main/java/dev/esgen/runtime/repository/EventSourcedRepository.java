package dev.esgen.runtime.repository;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import java.util.Objects;

/**
 * The typed repository API every generated {@code FooRepository} inherits.
 *
 * @param <A> the aggregate type
 * @param <I> its id type
 * @param <E> the sealed root of its events
 */
public abstract class EventSourcedRepository<A, I, E> {

  private final EventStore store;
  private final AggregateDefinition<A, I, E> definition;

  protected EventSourcedRepository(EventStore store, AggregateDefinition<A, I, E> definition) {
    this.store = Objects.requireNonNull(store, "store");
    this.definition = Objects.requireNonNull(definition, "definition");
  }

  /** The definition of the aggregate type this repository stores. */
  public final AggregateDefinition<A, I, E> definition() {
    return definition;
  }
}
