package dev.esgen.runtime.index;

import java.util.List;
import java.util.Map;

/**
 * Reads the values of an aggregate's index and unique columns out of its state.
 *
 * <p>The processor generates {@code FooRepository.IndexColumns}, the one place that knows the column names and how
 * to read and encode them. Values are given in their stored string form (see {@link IndexValues}); a
 * column whose value is {@code null} is absent from the map (it is not indexed).
 *
 * <p>The {@code @Indexed} (non-unique) columns are numbered in declaration order: the i-th one is kept in
 * index slot i (attribute {@code ix{i}_pk}, global secondary index
 * {@code esgen-index-{i}}). Reordering or inserting {@code @Indexed} columns therefore
 * moves columns between slots; see {@code docs/index-columns.md}.
 *
 * <pre>{@code
 * IndexColumns<BankAccount> columns = new BankAccountRepository.IndexColumns();
 * Map<String, String> values = columns.values(account);   // {"owner" -> "Ann", "email" -> "ann@example.com"}
 * int slot = columns.slotOf(BankAccountRepository.IndexColumns.OWNER);     // 0
 * }</pre>
 *
 * @param <A> the aggregate type
 */
public interface IndexColumns<A> {

  /** The columns of an aggregate that has none: no values to index, nothing to reserve. */
  static <A> IndexColumns<A> none() {
    return NoIndexColumns.instance();
  }

  /** The columns, in declaration order. */
  List<IndexColumn> columns();

  /** Column name to stored value, for every column whose value in {@code state} is not null. */
  Map<String, String> values(A state);

  /** The {@code @Indexed} (non-unique) columns in slot order. */
  default List<IndexColumn> slotted() {
    return columns().stream().filter(column -> !column.unique()).toList();
  }

  /**
   * The slot of the {@code @Indexed} column {@code column}.
   *
   * @throws IllegalArgumentException when it is not one of this aggregate's {@code @Indexed} columns
   */
  default int slotOf(IndexColumn column) {
    int slot = slotted().indexOf(column);
    if (slot < 0) {
      throw new IllegalArgumentException("column " + column.name() + " is not an @Indexed column of this aggregate");
    }
    return slot;
  }
}
