package dev.esgen.spring.boot.app;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Layout;
import java.util.ArrayList;
import java.util.List;

/** A shopping cart, on the tip layout: it lives in the tip table. */
@Aggregate(name = "cart", events = CartEvent.class, layout = Layout.TIP)
public record Cart(@AggregateId String id, List<String> skus) {

  static Cart open(CartOpened e) {
    return new Cart(e.id(), List.of());
  }

  Cart apply(ItemAdded e) {
    List<String> more = new ArrayList<>(skus);
    more.add(e.sku());
    return new Cart(id, List.copyOf(more));
  }

  public List<CartEvent> add(String sku) {
    return List.of(new ItemAdded(sku));
  }
}
