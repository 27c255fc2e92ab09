package shop;

import dev.esgen.annotations.EventType;

@EventType("order-shipped")
public record OrderShipped() implements OrderEvent {}
