package dev.esgen.spring.boot.app;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import java.util.List;

/** An order, on the journal layout, listed by customer: provisioning must give it an index slot. */
@Aggregate(name = "order", events = OrderEvent.class)
public record Order(@AggregateId OrderId id, @Indexed String customer, long totalCents, boolean shipped) {

  static Order place(OrderPlaced e) {
    return new Order(e.id(), e.customer(), e.totalCents(), false);
  }

  Order apply(OrderShipped e) {
    return new Order(id, customer, totalCents, true);
  }

  public List<OrderEvent> ship() {
    return shipped ? List.of() : List.of(new OrderShipped());
  }
}
