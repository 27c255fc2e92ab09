package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Layout;

/** A tip-layout aggregate that asks for the asynchronous repository too. */
@DomainEvents
sealed interface CartEvent permits CartOpened, ItemAdded {}

record CartOpened(String id, String owner) implements CartEvent {}

record ItemAdded(String sku) implements CartEvent {}

@Aggregate(name = "cart", events = CartEvent.class, layout = Layout.TIP, tipMaxEvents = 20, async = true)
record Cart(@AggregateId String id, @Indexed String owner, int items) {
  static Cart open(CartOpened e) {
    return new Cart(e.id(), e.owner(), 0);
  }

  Cart apply(ItemAdded e) {
    return new Cart(id, owner, items + 1);
  }
}
