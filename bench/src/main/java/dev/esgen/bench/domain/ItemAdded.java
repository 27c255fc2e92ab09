package dev.esgen.bench.domain;

import dev.esgen.annotations.EventType;

/** The small event (about 60 bytes of JSON). */
@EventType("item-added")
public record ItemAdded(String sku, int quantity, long priceCents) implements CartEvent {}
