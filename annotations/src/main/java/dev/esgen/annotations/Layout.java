package dev.esgen.annotations;

/**
 * How an aggregate type's streams are stored in DynamoDB, chosen with {@link Aggregate#layout()}. Both
 * layouts sit behind the same generated repository, so switching changes cost, not service code (data
 * already stored does not move between layouts by itself). {@code docs/layouts.md} compares them with
 * measured numbers.
 *
 * <pre>{@code
 * @Aggregate(name = "cart", events = CartEvent.class, layout = Layout.TIP)
 * public record Cart(@AggregateId CartId id, List<Line> lines) { ... }
 * }</pre>
 */
public enum Layout {

  /**
   * One item per event plus a snapshot head row, in the journal and snapshot tables. Every append is
   * one transaction; a load is one read when the snapshot is current. Costs grow with the events
   * written, not with the stream's length: suits long streams with small events.
   */
  JOURNAL,

  /**
   * A tip item per stream holding the newest events and a snapshot, plus calved batch items, in the
   * tip table. A load is one {@code GetItem}; an append is one {@code UpdateItem} (a transaction only
   * when the tip calves). An append is billed on the tip's whole size: suits streams whose tip stays
   * small (short streams, small state).
   */
  TIP
}
