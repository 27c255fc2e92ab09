package dev.esgen.processor.functional.bank;

import dev.esgen.annotations.DomainEvents;

@DomainEvents
public sealed interface AccountEvent permits AccountOpened, MoneyDeposited, AccountClosed {}
