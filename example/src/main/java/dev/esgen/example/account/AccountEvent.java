package dev.esgen.example.account;

import dev.esgen.annotations.DomainEvents;

/** Everything that can happen to a bank account. */
@DomainEvents
public sealed interface AccountEvent permits AccountOpened, BalanceChanged, EmailChanged, AccountClosed {}
