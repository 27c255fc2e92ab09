package dev.esgen.runtime.aggregate;

import java.util.Objects;

/**
 * An aggregate's keys with its id strings checked against another layout's limit too: a generated
 * {@code Keys} checks ids against the layout its aggregate declares, so a definition moved to another
 * layout ({@link AggregateDefinition#withLayout}) checks them against both, and an id the new layout's keys
 * cannot hold is refused before any request.
 *
 * <pre>{@code
 * AggregateKeys<Gadget, String> onJournal = LayoutCheckedKeys.of("gadget", LayoutKind.JOURNAL, tipKeys);
 * onJournal.idString(idOf1010Bytes);   // InvalidIdException: over the journal's 996 bytes
 * }</pre>
 */
record LayoutCheckedKeys<A, I>(String aggregateName, LayoutKind layout, AggregateKeys<A, I> keys)
    implements AggregateKeys<A, I> {

  LayoutCheckedKeys {
    Objects.requireNonNull(aggregateName, "aggregateName");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(keys, "keys");
  }

  /** {@code keys} checked against {@code layout} as well, unwrapping an earlier check for another layout. */
  static <A, I> AggregateKeys<A, I> of(String aggregateName, LayoutKind layout, AggregateKeys<A, I> keys) {
    AggregateKeys<A, I> original = keys instanceof LayoutCheckedKeys<A, I> checked ? checked.keys() : keys;
    return new LayoutCheckedKeys<>(aggregateName, layout, original);
  }

  @Override
  public I idOf(A state) {
    return keys.idOf(state);
  }

  @Override
  public String idString(I id) {
    return AggregateIds.requireValid(aggregateName, layout, keys.idString(id));
  }

  @Override
  public I parseId(String idString) {
    return keys.parseId(idString);
  }
}
