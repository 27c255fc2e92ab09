import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface CartEvent permits Keys, Replay, CartClosed {}

record Keys(String id) implements CartEvent {}

record Replay(String id) implements CartEvent {}

record CartClosed() implements CartEvent {}

@Aggregate(name = "cart", events = CartEvent.class)
record Cart(@AggregateId String id) {
  static Cart open(Keys e) {
    return new Cart(e.id());
  }

  Cart apply(Replay e) {
    return this;
  }

  Cart apply(CartClosed e) {
    return this;
  }
}
