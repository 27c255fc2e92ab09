package dev.esgen.runtime.error;

/**
 * A lookup needs a global secondary index the table does not have (yet): the aggregate has more
 * {@code @Indexed} columns than the table has index slots, or the index is still being created.
 *
 * <p>Run {@code TableProvisioner.createTablesIfMissing(definitions...)} with every aggregate
 * definition: it adds the missing indexes to existing tables (DynamoDB backfills them from the head rows
 * already stored), or add them as infrastructure as code as {@code docs/operations.md} shows.
 *
 * <pre>{@code
 * try {
 *   accounts.listByOwner("Ann", PageRequest.first(20));
 * } catch (MissingIndexException e) {
 *   // "table 'snapshot' has no active index 'esgen-index-0' for bank-account owner: ..."
 * }
 * }</pre>
 */
public class MissingIndexException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String table;
  private final String index;

  public MissingIndexException(String table, String index, String aggregateName, String column, Throwable cause) {
    super("table '" + table + "' has no active index '" + index + "' for " + aggregateName + " " + column
        + ": run new TableProvisioner(client, config).createTablesIfMissing(definitions...) with every aggregate"
        + " definition, or add the index as described in docs/operations.md", cause);
    this.table = table;
    this.index = index;
  }

  public String table() {
    return table;
  }

  public String index() {
    return index;
  }
}
