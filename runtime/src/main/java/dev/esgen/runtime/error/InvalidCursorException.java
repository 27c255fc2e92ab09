package dev.esgen.runtime.error;

/**
 * A {@code PageRequest}'s cursor cannot continue the listing it was passed to: it belongs to another
 * aggregate type or another query (a {@code listAll} cursor passed to {@code listByOwner}, a cursor of
 * {@code listByOwner("Ann")} passed to {@code listByOwner("Bob")}), it was cut short or changed on its
 * way, or an earlier esgen version made it. Nothing was read.
 *
 * <p>It is bad input from the caller, not a store failure: answer with a client error, or start again
 * from the first page. The message never quotes the cursor, which holds stored ids, and repeats the
 * aggregate type or listing a cursor names only in the form esgen writes them (anyone can make a cursor:
 * text with line breaks, say, is not repeated).
 *
 * <pre>{@code
 * try {
 *   page = accounts.listByOwner("Ann", PageRequest.after(cursorFromTheClient, 20));
 * } catch (InvalidCursorException e) {
 *   // "cursor for bank-account listBy:owner is invalid: it belongs to bank-account listAll"
 *   return badRequest("stale or foreign page token");
 * }
 * }</pre>
 */
public class InvalidCursorException extends EsgenException {

  private static final long serialVersionUID = 1L;

  /**
   * What is wrong with a cursor.
   *
   * <pre>{@code
   * if (e.problem() == InvalidCursorException.Problem.UNSUPPORTED_VERSION) {
   *   return firstPage();   // a cursor from before an upgrade: start the listing again
   * }
   * }</pre>
   */
  public enum Problem {
    /** It was made by a listing of another aggregate type. */
    OTHER_AGGREGATE,
    /** It was made by another query of the same aggregate type, or the same query for another value. */
    OTHER_QUERY,
    /** It is no cursor esgen made, or it was cut short or changed. */
    MALFORMED,
    /** It was made by an esgen version whose cursor format this one does not read. */
    UNSUPPORTED_VERSION
  }

  private final String aggregateName;
  private final String query;
  private final Problem problem;

  /**
   * @param aggregateName the aggregate type whose listing the cursor was passed to
   * @param query that listing: {@code listAll} or {@code listBy:<column>}
   * @param problem what is wrong
   * @param detail the problem in words, for the message
   */
  public InvalidCursorException(String aggregateName, String query, Problem problem, String detail) {
    super("cursor for " + aggregateName + " " + query + " is invalid: " + detail);
    this.aggregateName = aggregateName;
    this.query = query;
    this.problem = problem;
  }

  /** The aggregate type whose listing the cursor was passed to. */
  public String aggregateName() {
    return aggregateName;
  }

  /** The listing the cursor was passed to: {@code listAll} or {@code listBy:<column>}. */
  public String query() {
    return query;
  }

  /** What is wrong with the cursor. */
  public Problem problem() {
    return problem;
  }
}
