package dev.esgen.spring.boot.app;

import dev.esgen.annotations.DomainEvents;

/** What happens to an order. */
@DomainEvents
public sealed interface OrderEvent permits OrderPlaced, OrderShipped {}
