package dev.esgen.processor.functional.ledger;

import dev.esgen.annotations.EventType;

/** Its first events also stored a "reason", since removed: reading them ignores it. */
@EventType("fee-charged")
public record FeeCharged(long cents) implements LedgerEvent {}
