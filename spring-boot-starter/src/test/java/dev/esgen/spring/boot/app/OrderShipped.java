package dev.esgen.spring.boot.app;

import dev.esgen.annotations.EventType;

/** The order left the warehouse. */
@EventType("order-shipped")
public record OrderShipped() implements OrderEvent {}
