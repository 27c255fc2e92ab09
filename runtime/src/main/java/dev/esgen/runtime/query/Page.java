package dev.esgen.runtime.query;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of a listing and where the next one starts.
 *
 * <pre>{@code
 * Page<BankAccount> page = accounts.listByOwner("Ann", PageRequest.first(20));
 * page.items().forEach(this::show);
 * page.nextCursor().ifPresent(cursor -> rememberForNextRequest(cursor));
 * }</pre>
 *
 * @param items the items of this page, in the listing's order
 * @param nextCursor an opaque cursor for {@link PageRequest#after(String, int)}; empty on the last page
 * @param <T> the item type
 */
public record Page<T>(List<T> items, Optional<String> nextCursor) {

  /** Keeps a copy of {@code items}. */
  public Page {
    items = List.copyOf(items);
    Objects.requireNonNull(nextCursor, "nextCursor");
  }

  /** This page with every item mapped by {@code mapper}, same cursor. */
  public <U> Page<U> map(Function<? super T, ? extends U> mapper) {
    return new Page<>(items.stream().<U>map(mapper).toList(), nextCursor);
  }
}
