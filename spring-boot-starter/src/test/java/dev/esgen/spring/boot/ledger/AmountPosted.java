package dev.esgen.spring.boot.ledger;

/** An amount was posted to a ledger. */
public record AmountPosted(long cents) implements LedgerEvent {}
