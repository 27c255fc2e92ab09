package dev.esgen.processor;

import java.util.List;

/**
 * Postpones the aggregate being processed to the next round because types it refers to do not exist
 * yet (another processor may generate them).
 */
final class DeferAggregateException extends Exception {
  private static final long serialVersionUID = 1L;

  // An array rather than a List: an exception is Serializable, and List is not.
  private final String[] unresolvedTypes;

  public DeferAggregateException(List<String> unresolvedTypes) {
    super(String.join(", ", unresolvedTypes), null, false, false);
    this.unresolvedTypes = List.copyOf(unresolvedTypes).toArray(String[]::new);
  }

  /** The types that could not be resolved, as written. */
  public List<String> unresolvedTypes() {
    return List.of(unresolvedTypes);
  }
}
