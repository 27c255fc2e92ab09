package shop;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;
import java.util.List;

/** Both column kinds, so that every generated class has members to check. */
@Aggregate(name = "order", events = OrderEvent.class)
public record Order(@AggregateId OrderId id, @Indexed String customer, @Unique String reference, boolean shipped) {

  static Order place(OrderPlaced e) {
    return new Order(e.id(), e.customer(), e.reference(), false);
  }

  Order apply(OrderShipped e) {
    return new Order(id, customer, reference, true);
  }

  public List<OrderEvent> ship() {
    return shipped ? List.of() : List.of(new OrderShipped());
  }
}
