package dev.esgen.runtime.index;

import java.util.List;
import java.util.Map;

/**
 * Reads the values of an aggregate's index and unique columns out of its state.
 *
 * <p>The processor generates {@code FooIndexColumns}, the one place that knows the column names and how
 * to read them. Values are given in their stored string form; a column whose value is {@code null} is
 * absent from the map (it is not indexed).
 *
 * <pre>{@code
 * IndexColumns<BankAccount> columns = new BankAccountIndexColumns();
 * Map<String, String> values = columns.values(account);   // {"owner" -> "Ann", "email" -> "ann@example.com"}
 * }</pre>
 *
 * @param <A> the aggregate type
 */
public interface IndexColumns<A> {

  /** The columns, in declaration order. */
  List<IndexColumn> columns();

  /** Column name to stored value, for every column whose value in {@code state} is not null. */
  Map<String, String> values(A state);
}
