package dev.esgen.bench.domain;

import dev.esgen.annotations.EventType;

/** Gives the cart another code: changes the {@code @Unique} column. */
@EventType("code-changed")
public record CodeChanged(String code) implements CartEvent {}
