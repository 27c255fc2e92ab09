package dev.esgen.runtime.error;

/**
 * A stored stream contradicts itself, for example a gap in its seq numbers or a head row that claims
 * more events than the journal holds. esgen never writes such data; it points at manual edits or at
 * another writer that does not follow the layout.
 *
 * <pre>{@code
 * try {
 *   accounts.load(id);
 * } catch (CorruptStreamException e) {
 *   // "bank-account 5f0c... is corrupt: expected event 8 in the journal, found 9"
 * }
 * }</pre>
 */
public class CorruptStreamException extends StoreException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;

  /**
   * @param aggregateName the stored name of the aggregate type
   * @param aggregateId the stream's id string
   * @param problem what contradicts what, without stored values
   */
  public CorruptStreamException(String aggregateName, String aggregateId, String problem) {
    super(aggregateName + " " + aggregateId + " is corrupt: " + problem);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
  }

  /** The stored name of the aggregate type, such as {@code bank-account}. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The stream's id string. */
  public String aggregateId() {
    return aggregateId;
  }
}
