package dev.esgen.runtime.error;

/**
 * A table the change feed reads already has a DynamoDB stream, of a view type that lacks what the feed
 * reads: the new image of each changed item ({@code NEW_IMAGE}, or {@code NEW_AND_OLD_IMAGES}, which
 * holds it too). DynamoDB cannot change the view type of an enabled stream, so
 * {@link dev.esgen.runtime.provision.TableProvisioner#enableChangeFeed()} refuses, and changes nothing on
 * any table.
 *
 * <p>Disable the table's stream (its other consumers lose it: move them to the new stream) and call the
 * provisioner again, or declare {@code NEW_IMAGE} in your infrastructure code, which replaces the stream
 * the same way.
 *
 * <pre>{@code
 * try {
 *   provisioner.enableChangeFeed();
 * } catch (StreamViewTypeMismatchException e) {
 *   // "table 'journal' has a stream of view type KEYS_ONLY, but the change feed needs NEW_IMAGE or
 *   //  NEW_AND_OLD_IMAGES; no table was changed: ..."
 * }
 * }</pre>
 */
public class StreamViewTypeMismatchException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String table;
  private final String found;

  /**
   * @param table the table whose stream has the other view type
   * @param found the view type it has
   */
  public StreamViewTypeMismatchException(String table, String found) {
    super("table '" + table + "' has a stream of view type " + found + ", but the change feed needs NEW_IMAGE or"
        + " NEW_AND_OLD_IMAGES; no table was changed: disable the table's stream (its consumers lose it) and"
        + " provision again, see docs/operations.md");
    this.table = table;
    this.found = found;
  }

  /** The name of the table. */
  public String table() {
    return table;
  }

  /** The view type the table's stream has, e.g. {@code KEYS_ONLY}. */
  public String found() {
    return found;
  }
}
