package dev.esgen.spring.boot.ledger;

import dev.esgen.annotations.DomainEvents;

/** What happens to a ledger. */
@DomainEvents
public sealed interface LedgerEvent permits LedgerOpened, AmountPosted {}
