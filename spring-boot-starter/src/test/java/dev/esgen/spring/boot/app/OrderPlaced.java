package dev.esgen.spring.boot.app;

import dev.esgen.annotations.EventType;

/** A customer placed an order. */
@EventType("order-placed")
public record OrderPlaced(OrderId id, String customer, long totalCents) implements OrderEvent {}
