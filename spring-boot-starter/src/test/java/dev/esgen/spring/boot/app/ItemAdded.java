package dev.esgen.spring.boot.app;

import dev.esgen.annotations.EventType;

/** An item was put in the cart. */
@EventType("item-added")
public record ItemAdded(String sku) implements CartEvent {}
