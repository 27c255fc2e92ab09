package dev.esgen.runtime.internal.feed;

/**
 * An item of the journal or the tip table that has the keys of an event item but not its shape: thrown
 * by {@link EventItems} and turned by its caller into the public exception of what it was reading (a
 * stream record, a scanned table).
 *
 * <pre>{@code
 * throw new ItemShapeException("counter", "42", "the tip has 3 events but 2 type names");
 * }</pre>
 */
public final class ItemShapeException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String aggregateName;
  private final String aggregateId;
  private final String problem;

  /** @param problem what is wrong, without stored values */
  public ItemShapeException(String aggregateName, String aggregateId, String problem) {
    super(aggregateName + " " + aggregateId + ": " + problem);
    this.aggregateName = aggregateName;
    this.aggregateId = aggregateId;
    this.problem = problem;
  }

  public String aggregateName() {
    return aggregateName;
  }

  public String aggregateId() {
    return aggregateId;
  }

  /** What is wrong with the item. */
  public String problem() {
    return problem;
  }
}
