package shop;

import dev.esgen.annotations.EventType;

@EventType("order-placed")
public record OrderPlaced(OrderId id, String customer, String reference) implements OrderEvent {}
