package dev.esgen.processor.functional.ledger;

import dev.esgen.annotations.DomainEvents;

/**
 * The events of a ledger that has been in production for a while: most of them changed since their first
 * events were stored (see docs/evolution.md for each kind of change).
 */
@DomainEvents(upcasters = LedgerUpcasters.class)
public sealed interface LedgerEvent permits Opened, Deposited, Withdrawn, FeeCharged, Closed {}
