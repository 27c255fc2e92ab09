package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Layout;

@DomainEvents
sealed interface CartEvent permits CartOpened {}

record CartOpened(String id) implements CartEvent {}

@Aggregate(name = "cart", events = CartEvent.class, layout = Layout.TIP,
    async = true)
record Cart(@AggregateId String id) {
  static Cart open(CartOpened e) {
    return new Cart(e.id());
  }
}
