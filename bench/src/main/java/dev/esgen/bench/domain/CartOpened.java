package dev.esgen.bench.domain;

import dev.esgen.annotations.EventType;
import java.time.Instant;

@EventType("cart-opened")
public record CartOpened(CartId id, String owner, Instant at) implements CartEvent {}
