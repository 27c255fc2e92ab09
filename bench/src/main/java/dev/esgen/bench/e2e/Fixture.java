package dev.esgen.bench.e2e;

import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;

/**
 * One stream an end-to-end call works on, prepared before the clock starts: its id, its creating event
 * and, for the floor, that event's and the initial snapshot's JSON bodies as esgen's codecs encode them.
 *
 * @param id the cart id
 * @param aid the id's stored string form
 * @param opened the creating event
 * @param openedBody {@code opened} as the generated event codec encodes it
 * @param snapshotBody the state after {@code opened} as the generated snapshot codec encodes it
 */
public record Fixture(CartId id, String aid, CartOpened opened, byte[] openedBody, byte[] snapshotBody) {}
