package dev.esgen.processor.functional.bank;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;

/**
 * A record aggregate with a record-wrapped UUID id, both column kinds and every storage option set, with
 * the asynchronous repository too.
 */
@Aggregate(
    name = "bank-account",
    events = AccountEvent.class,
    shards = 8,
    snapshotEvery = 50,
    snapshotsToKeep = 2,
    snapshotTtl = "P30D",
    async = true)
public record BankAccount(
    @AggregateId AccountId id, @Indexed String owner, @Unique String email, long balanceCents, boolean closed) {

  static BankAccount open(AccountOpened e) {
    return new BankAccount(e.id(), e.owner(), e.email(), 0, false);
  }

  BankAccount apply(MoneyDeposited e) {
    return new BankAccount(id, owner, email, balanceCents + e.cents(), closed);
  }

  BankAccount apply(AccountClosed e) {
    return new BankAccount(id, owner, email, balanceCents, true);
  }
}
