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

  /**
   * @param table the table that lacks the index
   * @param index the missing global secondary index
   * @param aggregateName the stored name of the aggregate type whose lookup needs it
   * @param column the column looked up
   * @param cause DynamoDB's refusal
   */
  public MissingIndexException(String table, String index, String aggregateName, String column, Throwable cause) {
    super("table '" + table + "' has no active index '" + index + "' for " + aggregateName + " " + column
        + ": run new TableProvisioner(client, config).createTablesIfMissing(definitions...) with every aggregate"
        + " definition, or add the index as described in docs/operations.md", cause);
    this.table = table;
    this.index = index;
  }

  /** The name of the table. */
  public String table() {
    return table;
  }

  /** The name of the missing global secondary index, such as {@code esgen-index-0}. */
  public String index() {
    return index;
  }
}
