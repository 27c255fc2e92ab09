package dev.esgen.runtime.query;

import java.util.Objects;
import java.util.Optional;

/**
 * Which page of a listing to read: the first one, or the one after a cursor a previous page returned.
 *
 * <p>{@code size} is the most items a page holds. A page may hold fewer even when more follow (entries
 * whose value changed since the index was read are left out); only an empty
 * {@link Page#nextCursor()} says that the listing is complete.
 *
 * <pre>{@code
 * Page<BankAccount> page = accounts.listByOwner("Ann", PageRequest.first(20));
 * while (page.nextCursor().isPresent()) {
 *   page = accounts.listByOwner("Ann", PageRequest.after(page.nextCursor().get(), 20));
 * }
 * }</pre>
 *
 * @param cursor where to continue, from {@link Page#nextCursor()} of the same listing (another listing's
 *     cursor fails with {@link dev.esgen.runtime.error.InvalidCursorException}); empty for the first page
 * @param size the most items to return, 1 to {@value #MAX_SIZE}
 */
public record PageRequest(Optional<String> cursor, int size) {

  /** The largest page: one {@code BatchGetItem} call loads at most 100 items. */
  public static final int MAX_SIZE = 100;

  /**
   * Checks the request.
   *
   * @throws IllegalArgumentException when {@code size} is not 1 to {@link #MAX_SIZE}
   */
  public PageRequest {
    Objects.requireNonNull(cursor, "cursor");
    if (size < 1 || size > MAX_SIZE) {
      throw new IllegalArgumentException("page size must be 1 to " + MAX_SIZE + ", was " + size);
    }
  }

  /** The first page of at most {@code size} items. */
  public static PageRequest first(int size) {
    return new PageRequest(Optional.empty(), size);
  }

  /** The page after the one that returned {@code cursor}, of at most {@code size} items. */
  public static PageRequest after(String cursor, int size) {
    return new PageRequest(Optional.of(Objects.requireNonNull(cursor, "cursor")), size);
  }
}
