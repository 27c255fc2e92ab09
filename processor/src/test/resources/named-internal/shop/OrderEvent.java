package shop;

import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface OrderEvent permits OrderEvent.Placed {
  record Placed(String id, String customer) implements OrderEvent {}
}
