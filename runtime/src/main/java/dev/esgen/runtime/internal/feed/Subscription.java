package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.feed.Projection;
import dev.esgen.runtime.feed.TransactionalProjection;
import java.util.Objects;

/**
 * One projection's handler of one aggregate type's events: either a {@link Projection} (at least once)
 * or a {@link TransactionalProjection} (its writes committed with the position), never both.
 *
 * <pre>{@code
 * Subscription<BankAccount, AccountId, AccountEvent> s =
 *     Subscription.atLeastOnce("balances", accounts.definition(), event -> balances.apply(event));
 * }</pre>
 *
 * @param projection the projection's name
 * @param definition the aggregate type, whose codec decodes the events and whose layout fills gaps
 * @param handler the at-least-once handler, or null
 * @param writer the exactly-once handler, or null
 * @param <A> the aggregate type
 * @param <I> its id type
 * @param <E> the sealed root of its events
 */
public record Subscription<A, I, E>(
    String projection, AggregateDefinition<A, I, E> definition, Projection<E> handler,
    TransactionalProjection<E> writer) {

  public Subscription {
    Objects.requireNonNull(projection, "projection");
    Objects.requireNonNull(definition, "definition");
    if ((handler == null) == (writer == null)) {
      throw new IllegalArgumentException("a subscription has either a handler or a writer");
    }
  }

  /** {@code handler} takes the events of {@code definition}'s type for {@code projection}, at least once. */
  public static <A, I, E> Subscription<A, I, E> atLeastOnce(
      String projection, AggregateDefinition<A, I, E> definition, Projection<E> handler) {
    return new Subscription<>(projection, definition, Objects.requireNonNull(handler, "projection"), null);
  }

  /** {@code writer}'s writes are committed with the position, so each event is taken exactly once. */
  public static <A, I, E> Subscription<A, I, E> exactlyOnce(
      String projection, AggregateDefinition<A, I, E> definition, TransactionalProjection<E> writer) {
    return new Subscription<>(projection, definition, null, Objects.requireNonNull(writer, "projection"));
  }

  /** Whether the projection's writes go into the position's transaction. */
  public boolean transactional() {
    return writer != null;
  }

  /** The position of this projection in the stream {@code aggregateId}. */
  public PositionKey positionIn(String aggregateId) {
    return PositionKey.of(projection, definition.name(), aggregateId);
  }
}
