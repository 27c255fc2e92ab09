package dev.esgen.processor.functional.bank;

public record AccountClosed() implements AccountEvent {}
