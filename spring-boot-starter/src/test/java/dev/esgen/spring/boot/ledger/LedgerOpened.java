package dev.esgen.spring.boot.ledger;

/** A ledger was opened. */
public record LedgerOpened(String id) implements LedgerEvent {}
