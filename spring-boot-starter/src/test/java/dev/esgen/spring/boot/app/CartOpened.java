package dev.esgen.spring.boot.app;

import dev.esgen.annotations.EventType;

/** A cart was opened. */
@EventType("cart-opened")
public record CartOpened(String id) implements CartEvent {}
