package dev.esgen.processor;

/**
 * Abandons the aggregate being processed after its errors were reported (or left to javac, which reports
 * some mistakes only if no processor did); other aggregates go on.
 */
final class AbortAggregateException extends Exception {
  private static final long serialVersionUID = 1L;

  public AbortAggregateException() {
    super(null, null, false, false);
  }
}
