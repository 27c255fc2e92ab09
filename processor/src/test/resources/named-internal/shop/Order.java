package shop;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;

/** Kept inside its package, in a package the module exports for its other, public types. */
@Aggregate(name = "order", events = OrderEvent.class)
record Order(@AggregateId String id, @Indexed String customer) {
  static Order place(OrderEvent.Placed e) {
    return new Order(e.id(), e.customer());
  }
}
