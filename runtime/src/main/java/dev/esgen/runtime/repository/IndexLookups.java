package dev.esgen.runtime.repository;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.InvalidCursorException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.index.SlotIndexQuery;
import dev.esgen.runtime.internal.query.Cursors;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.List;
import java.util.Optional;

/**
 * What the synchronous and the asynchronous repository check alike when they look aggregates up by an
 * index column: the value asked for, the listing of a value no aggregate can hold, and a loaded state's value
 * in the form the index stores.
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

  /**
   * The page of the listing by {@code value} when no key can hold the value, so that no aggregate holds it:
   * empty and last, without a request. No page of this listing has a cursor, so a cursor in {@code page}
   * is one of another listing, refused as the listing refuses it when it queries.
   *
   * @throws InvalidCursorException when {@code page} has a cursor of another listing
   */
  static <T> Page<T> noHolders(AggregateDefinition<?, ?, ?> definition, IndexColumn column, String value,
      PageRequest page) {
    page.cursor().ifPresent(cursor ->
        Cursors.listBy(definition.name(), column.name(), value).decode(cursor, SlotIndexQuery::aid));
    return new Page<>(List.of(), Optional.empty());
  }

  /** {@code state}'s value of {@code column} as the index stores it, or null when it has none. */
  static <A> String normalizedValue(AggregateDefinition<A, ?, ?> definition, A state, IndexColumn column) {
    String current = definition.indexColumns().values(state).get(column.name());
    return current == null ? null : column.normalize(current);
  }
}
