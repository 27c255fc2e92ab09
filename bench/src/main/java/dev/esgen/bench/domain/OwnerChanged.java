package dev.esgen.bench.domain;

import dev.esgen.annotations.EventType;

/** Hands the cart to another owner: changes the {@code @Indexed} column. */
@EventType("owner-changed")
public record OwnerChanged(String owner) implements CartEvent {}
