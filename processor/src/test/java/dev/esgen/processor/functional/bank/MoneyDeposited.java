package dev.esgen.processor.functional.bank;

public record MoneyDeposited(long cents) implements AccountEvent {}
