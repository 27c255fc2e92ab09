package dev.esgen.bench.domain;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;
import java.util.List;

/**
 * The benchmark aggregate. It snapshots every 1,000 events so that loads with 10 and 100 events after
 * the snapshot exist; scenarios that want another interval derive a definition from the generated one
 * (see {@code SnapshotIntervalRepository}). {@code owner} is an index column (lookups through a global
 * secondary index) and {@code code} a unique one (a reservation item per value); the end-to-end
 * scenarios measure the lookups and what index columns cost an append. The async scenario drives the
 * generated {@code CartAsyncRepository}.
 */
@Aggregate(name = "bench-cart", events = CartEvent.class, snapshotEvery = 1000, async = true)
public record Cart(@AggregateId CartId id, @Indexed String owner, @Unique String code, int items, long totalCents) {

  static Cart open(CartOpened e) {
    return new Cart(e.id(), e.owner(), e.code(), 0, 0);
  }

  Cart apply(ItemAdded e) {
    return new Cart(id, owner, code, items + e.quantity(), totalCents + e.quantity() * e.priceCents());
  }

  Cart apply(OwnerChanged e) {
    return new Cart(id, e.owner(), code, items, totalCents);
  }

  Cart apply(CodeChanged e) {
    return new Cart(id, owner, e.code(), items, totalCents);
  }

  Cart apply(LinesAdded e) {
    int quantity = 0;
    long cents = 0;
    for (LinesAdded.Line line : e.lines()) {
      quantity += line.quantity();
      cents += line.quantity() * line.priceCents();
    }
    return new Cart(id, owner, code, items + quantity, totalCents + cents);
  }

  /** The command the transact and contention benchmarks run. */
  public List<CartEvent> add(String sku, int quantity, long priceCents) {
    return List.of(new ItemAdded(sku, quantity, priceCents));
  }
}
