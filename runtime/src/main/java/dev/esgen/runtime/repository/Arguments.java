package dev.esgen.runtime.repository;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import java.util.Collection;
import java.util.List;

/**
 * The null checks of the repositories' arguments: a null is the caller's mistake, refused before any
 * request with a message naming the aggregate type and the argument.
 *
 * <pre>{@code
 * Arguments.required(definition, page, "the page request is null");   // "bank-account: the page request is null"
 * }</pre>
 */
final class Arguments {

  private Arguments() {}

  /**
   * {@code value}, when it is not null.
   *
   * @param isNull what the message says after the aggregate type's name, e.g. {@code "the events are null"}
   * @throws NullPointerException when {@code value} is null
   */
  static <T> T required(AggregateDefinition<?, ?, ?> definition, T value, String isNull) {
    if (value == null) {
      throw new NullPointerException(definition.name() + ": " + isNull);
    }
    return value;
  }

  /**
   * {@code ids}, when neither the collection nor any of its ids is null: checked before the state cache
   * or the keys see them, so that the message is the same with the cache on or off.
   *
   * @throws NullPointerException {@code "bank-account: an id is null"} for a null among them
   */
  static <C extends Collection<?>> C ids(AggregateDefinition<?, ?, ?> definition, C ids) {
    required(definition, ids, "the ids are null");
    for (Object id : ids) {
      if (id == null) {
        throw new NullPointerException(definition.name() + ": an id is null");
      }
    }
    return ids;
  }

  /**
   * {@code events}, when neither the list nor any of its events is null.
   *
   * @throws NullPointerException naming which event is null ({@code "bank-account: event 2 of 3 is null"})
   */
  static <L extends List<?>> L events(AggregateDefinition<?, ?, ?> definition, L events) {
    required(definition, events, "the events are null");
    // Not contains(null): the JDK's immutable lists throw on it.
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i) == null) {
        throw new NullPointerException(definition.name() + ": event " + (i + 1) + " of " + events.size() + " is null");
      }
    }
    return events;
  }
}
