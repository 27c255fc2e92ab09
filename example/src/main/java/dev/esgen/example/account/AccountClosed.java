package dev.esgen.example.account;

import dev.esgen.annotations.EventType;

@EventType("account-closed")
public record AccountClosed(String reason) implements AccountEvent {}
