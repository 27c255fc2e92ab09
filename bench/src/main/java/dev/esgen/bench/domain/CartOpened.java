package dev.esgen.bench.domain;

import dev.esgen.annotations.EventType;
import java.time.Instant;

/**
 * Opens a cart for an owner, with a code no other cart may hold (the {@code @Unique} column).
 *
 * @param code the cart's unique code; {@link #of} derives one from the id, so codes never collide
 */
@EventType("cart-opened")
public record CartOpened(CartId id, String owner, String code, Instant at) implements CartEvent {

  /** A cart of {@code owner} whose code is derived from its id: unique per cart. */
  public static CartOpened of(CartId id, String owner) {
    return new CartOpened(id, owner, codeOf(id), Instant.now());
  }

  /** The code {@link #of} gives the cart {@code id}. */
  public static String codeOf(CartId id) {
    return "C-" + id.value();
  }
}
