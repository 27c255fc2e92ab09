package dev.esgen.processor;

import java.util.List;

/**
 * Postpones the aggregate being processed to the next round because types it refers to do not exist
 * yet (another processor may generate them).
 */
final class DeferAggregateException extends Exception {
  private static final long serialVersionUID = 1L;

  private final List<String> unresolvedTypes;

  public DeferAggregateException(List<String> unresolvedTypes) {
    super(String.join(", ", unresolvedTypes), null, false, false);
    this.unresolvedTypes = List.copyOf(unresolvedTypes);
  }

  /** The types that could not be resolved, as written. */
  public List<String> unresolvedTypes() {
    return unresolvedTypes;
  }
}
