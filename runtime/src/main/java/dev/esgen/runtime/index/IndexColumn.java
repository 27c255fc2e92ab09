package dev.esgen.runtime.index;

import dev.esgen.annotations.Normalization;
import dev.esgen.runtime.internal.keys.IndexKeys;
import java.util.Objects;

/**
 * One aggregate component that is looked up ({@code @Indexed}) or kept unique ({@code @Unique}).
 *
 * <pre>{@code
 * IndexColumn owner = IndexColumn.indexed("owner");
 * IndexColumn email = IndexColumn.unique("email", Normalization.CASE_INSENSITIVE);
 * }</pre>
 *
 * @param name the column's stored name (the component's name unless the annotation names another),
 *     part of every index key and reservation key, and the name errors use
 * @param unique whether no two aggregates of the type may hold the same value
 * @param normalization how values are normalised before they are reserved and looked up; always
 *     {@link Normalization#EXACT} for a column that is not unique
 */
public record IndexColumn(String name, boolean unique, Normalization normalization) {

  /**
   * Checks the column.
   *
   * @throws IllegalArgumentException when the name is empty or holds the key separator, or a column that is
   *     not unique has a normalisation other than {@code EXACT}
   */
  public IndexColumn {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.contains(IndexKeys.SEPARATOR)) {
      throw new IllegalArgumentException("column name '" + name + "' must be non-empty and free of '"
          + IndexKeys.SEPARATOR + "'");
    }
    Objects.requireNonNull(normalization, "normalization");
    if (!unique && normalization != Normalization.EXACT) {
      throw new IllegalArgumentException("column " + name + ": only unique columns are normalised");
    }
  }

  /** An {@code @Indexed} column. */
  public static IndexColumn indexed(String name) {
    return new IndexColumn(name, false, Normalization.EXACT);
  }

  /** A {@code @Unique} column whose values are compared after {@code normalization}. */
  public static IndexColumn unique(String name, Normalization normalization) {
    return new IndexColumn(name, true, normalization);
  }

  /** {@code value} (a stored string form) as this column compares it. */
  public String normalize(String value) {
    return normalization.apply(value);
  }
}
