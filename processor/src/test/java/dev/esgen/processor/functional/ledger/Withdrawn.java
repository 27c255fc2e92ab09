package dev.esgen.processor.functional.ledger;

import dev.esgen.annotations.EventType;

/** {@code reference} was added after the first withdrawals were stored: those read it as null. */
@EventType("money-withdrawn")
public record Withdrawn(long cents, String reference) implements LedgerEvent {}
