package dev.esgen.bench.e2e;

import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import java.util.List;

/**
 * One stream an end-to-end call works on, prepared before the clock starts: its id, its creating event
 * and, for the floor, the JSON bodies esgen's codecs write for it, so the floor sends the same bytes
 * without encoding or folding anything itself.
 *
 * @param id the cart id
 * @param aid the id's stored string form
 * @param opened the creating event (owner and unique code included)
 * @param openedBody {@code opened} as the generated event codec encodes it
 * @param snapshotBody the state after {@code opened} as the generated snapshot codec encodes it
 * @param snapshotAfterOne the state after {@code opened} and one small event, encoded (the tip rewrites
 *     its snapshot on every append)
 * @param snapshotAfterFive the state after {@code opened} and five small events, encoded
 * @param group for lookups: this cart and others created with the same owner ({@link #LOOKUP_GROUP} in
 *     all), ids in the order they were created; empty for other operations
 */
public record Fixture(CartId id, String aid, CartOpened opened, byte[] openedBody, byte[] snapshotBody,
    byte[] snapshotAfterOne, byte[] snapshotAfterFive, List<CartId> group) {

  /** How many carts share an owner in a lookup fixture: the page size of {@code listByOwner} and {@code findAll}. */
  public static final int LOOKUP_GROUP = 20;

  public String owner() {
    return opened.owner();
  }

  public String code() {
    return opened.code();
  }

  /** The encoded snapshot after {@code events} small events appended to the fresh stream. */
  public byte[] snapshotAfter(int events) {
    return switch (events) {
      case 1 -> snapshotAfterOne;
      case 5 -> snapshotAfterFive;
      default -> throw new IllegalArgumentException("no snapshot prepared after " + events + " events");
    };
  }
}
