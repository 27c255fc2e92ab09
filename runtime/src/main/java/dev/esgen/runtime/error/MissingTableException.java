package dev.esgen.runtime.error;

import java.util.List;

/**
 * A table esgen writes to or reads from does not exist.
 *
 * <p>Create the tables with {@link dev.esgen.runtime.provision.TableProvisioner} (for development and
 * tests) or with infrastructure as code as described in {@code docs/operations.md}.
 *
 * <pre>{@code
 * try {
 *   accounts.create(opened);
 * } catch (MissingTableException e) {
 *   // in a dev environment only; with the definitions, so that their index slots are made too
 *   new TableProvisioner(client, config).createTablesIfMissing(accounts.definition());
 * }
 * }</pre>
 */
public class MissingTableException extends StoreException {

  private static final long serialVersionUID = 1L;

  // An array rather than a List: an exception is Serializable, and List is not.
  private final String[] tables;

  /**
   * @param tables the table that is missing, or the tables one of which is, when DynamoDB did not say
   *     which (a transaction spans both)
   */
  public MissingTableException(List<String> tables, Throwable cause) {
    this(tables, "createTablesIfMissing()", cause);
  }

  /**
   * A missing table that another {@code TableProvisioner} call than {@code createTablesIfMissing()} creates.
   *
   * @param tables as above
   * @param provisioning the {@code TableProvisioner} call that creates the table, for example
   *     {@code "enableChangeFeed()"} for the change feed's positions table
   * @param cause what DynamoDB answered
   */
  public MissingTableException(List<String> tables, String provisioning, Throwable cause) {
    super((tables.size() == 1 ? "table '" + tables.get(0) + "' does not exist"
            : "one of the tables " + tables + " does not exist")
        + ": create it with new TableProvisioner(client, config)." + provisioning + " or as described in"
        + " docs/operations.md", cause);
    this.tables = List.copyOf(tables).toArray(String[]::new);
  }

  /** The table that is missing, or the candidates when DynamoDB did not say which one. */
  public List<String> tables() {
    return List.of(tables);
  }
}
