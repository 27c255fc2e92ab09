package dev.esgen.runtime.error;

import java.util.Optional;

/**
 * An existing table, or an existing index of the name esgen uses, has other keys than esgen's layouts
 * need: another attribute name, another attribute type, or a missing range key; or another index of the
 * table is keyed on an attribute esgen keys its indexes on, with another type. esgen's reads and writes
 * would fail on such a table, or worse, write items no lookup finds, so
 * {@link dev.esgen.runtime.provision.TableProvisioner} refuses it before it creates, adds or enables
 * anything.
 *
 * <p>Point {@code StoreConfig} at a table name that is free, or recreate the table with the keys
 * {@code docs/operations.md} describes. An index of esgen's name with other keys can be deleted: the
 * provisioner adds it again with esgen's keys and DynamoDB backfills it.
 *
 * <pre>{@code
 * try {
 *   new TableProvisioner(client, config).createTablesIfMissing(definitions);
 * } catch (TableSchemaMismatchException e) {
 *   // "table 'journal' has hash key pkey (S), range key sk (S), but esgen needs hash key pkey (S),
 *   //  range key skey (S); the table was left as it was: ..."
 * }
 * }</pre>
 */
public class TableSchemaMismatchException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String table;
  private final String index;
  private final String expected;
  private final String found;

  /**
   * @param table the table whose keys, or one of whose indexes' keys, differ
   * @param index the index whose keys differ, or {@code null} when the table's own keys do
   * @param expected the keys esgen needs, e.g. {@code hash key pkey (S), range key skey (S)}
   * @param found the keys the table or index has, in the same form
   */
  public TableSchemaMismatchException(String table, String index, String expected, String found) {
    super((index == null ? "table '" + table + "'" : "index '" + index + "' of table '" + table + "'")
        + " has " + found + ", but esgen needs " + expected + "; the table was left as it was: "
        + (index == null
            ? "point StoreConfig at another table, or recreate this one as described in docs/operations.md"
            : "delete the index so that the provisioner adds it again with esgen's keys, or point StoreConfig"
                + " at another table"));
    this.table = table;
    this.index = index;
    this.expected = expected;
    this.found = found;
  }

  /** The name of the table. */
  public String table() {
    return table;
  }

  /** The index whose keys differ, or empty when the table's own keys do. */
  public Optional<String> index() {
    return Optional.ofNullable(index);
  }

  /** The keys esgen needs, e.g. {@code hash key pkey (S), range key skey (S)}. */
  public String expected() {
    return expected;
  }

  /** The keys the table or index has, in the same form as {@link #expected()}. */
  public String found() {
    return found;
  }
}
