package dev.esgen.runtime.repository;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.index.IndexColumn;

/**
 * What the synchronous and the asynchronous repository check alike when they look aggregates up by an
 * index column: the value asked for, and a loaded state's value in the form the index stores.
 */
final class IndexLookups {

  private IndexLookups() {}

  /** Refuses a null lookup value: null is never indexed, so asking for it is a mistake in the caller. */
  static void requireValue(AggregateDefinition<?, ?, ?> definition, IndexColumn column, String value) {
    if (value == null) {
      throw new IllegalArgumentException(definition.name() + " " + column.name()
          + ": null is never indexed, so no aggregate can be found by it");
    }
  }

  /** {@code state}'s value of {@code column} as the index stores it, or null when it has none. */
  static <A> String normalizedValue(AggregateDefinition<A, ?, ?> definition, A state, IndexColumn column) {
    String current = definition.indexColumns().values(state).get(column.name());
    return current == null ? null : column.normalize(current);
  }
}
