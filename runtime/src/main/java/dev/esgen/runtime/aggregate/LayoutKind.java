package dev.esgen.runtime.aggregate;

/**
 * Which storage layout holds an aggregate type's streams. Both sit behind the same repository API, so
 * switching an aggregate type changes its cost profile, not a line of service code (stored data does
 * not move between layouts by itself).
 *
 * <pre>{@code
 * AggregateDefinition.builder("cart", Cart.class)...layout(LayoutKind.TIP).tipPolicy(TipPolicy.defaults()).build();
 * }</pre>
 */
public enum LayoutKind {

  /**
   * One item per event in the journal table plus a snapshot head row: appends are one transaction,
   * loads one read when the snapshot is current. See {@code docs/schema.md}.
   */
  JOURNAL,

  /**
   * One tip item per stream holding its newest events and a snapshot, plus calved batch items: loads
   * are one {@code GetItem}, most appends one {@code UpdateItem}. See {@code docs/layouts.md}.
   */
  TIP
}
