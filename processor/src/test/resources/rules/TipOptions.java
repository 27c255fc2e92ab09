package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Layout;
import java.util.UUID;

@DomainEvents
sealed interface CartEvent permits CartOpened {}

record CartOpened(UUID id) implements CartEvent {}

@Aggregate(
    name = "cart",
    events = CartEvent.class,
    layout = Layout.TIP,
    tipMaxBytes = 500000,
    tipMaxEvents = -1,
    snapshotsToKeep = 2)
record Cart(@AggregateId UUID id) {
  static Cart open(CartOpened e) {
    return new Cart(e.id());
  }
}

@DomainEvents
sealed interface OrderEvent permits OrderPlaced {}

record OrderPlaced(UUID id) implements OrderEvent {}

@Aggregate(
    name = "order",
    events = OrderEvent.class,
    tipSnapshot = false)
record Order(@AggregateId UUID id) {
  static Order place(OrderPlaced e) {
    return new Order(e.id());
  }
}
