package dev.esgen.bench.domain;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import java.util.List;

/**
 * The benchmark aggregate. It snapshots every 1,000 events so that loads with 10 and 100 events after
 * the snapshot exist; scenarios that want another interval derive a definition from the generated one
 * (see {@code SnapshotVariants}).
 */
@Aggregate(name = "bench-cart", events = CartEvent.class, snapshotEvery = 1000)
public record Cart(@AggregateId CartId id, String owner, int items, long totalCents) {

  static Cart open(CartOpened e) {
    return new Cart(e.id(), e.owner(), 0, 0);
  }

  Cart apply(ItemAdded e) {
    return new Cart(id, owner, items + e.quantity(), totalCents + e.quantity() * e.priceCents());
  }

  Cart apply(LinesAdded e) {
    int quantity = 0;
    long cents = 0;
    for (LinesAdded.Line line : e.lines()) {
      quantity += line.quantity();
      cents += line.quantity() * line.priceCents();
    }
    return new Cart(id, owner, items + quantity, totalCents + cents);
  }

  /** The command the transact and contention benchmarks run. */
  public List<CartEvent> add(String sku, int quantity, long priceCents) {
    return List.of(new ItemAdded(sku, quantity, priceCents));
  }
}
