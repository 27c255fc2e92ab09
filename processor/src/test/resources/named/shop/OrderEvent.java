package shop;

import dev.esgen.annotations.DomainEvents;

@DomainEvents
public sealed interface OrderEvent permits OrderPlaced, OrderShipped {}
