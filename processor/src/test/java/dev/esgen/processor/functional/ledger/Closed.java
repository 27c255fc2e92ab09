package dev.esgen.processor.functional.ledger;

import dev.esgen.annotations.EventType;

/** Renamed: stored as "ledger-terminated" at first. */
@EventType(value = "ledger-closed", aliases = "ledger-terminated")
public record Closed() implements LedgerEvent {}
