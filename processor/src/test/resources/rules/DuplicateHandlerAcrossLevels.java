package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;
import java.util.UUID;

@DomainEvents
sealed interface AccountEvent permits AccountOpened, MoneyEvent {}

sealed interface MoneyEvent extends AccountEvent permits MoneyDeposited, MoneyWithdrawn {}

record AccountOpened(AccountId id) implements AccountEvent {}

record MoneyDeposited(long cents) implements MoneyEvent {}

record MoneyWithdrawn(long cents) implements MoneyEvent {}

record AccountId(UUID value) {}

@Aggregate(name = "bank-account", events = AccountEvent.class)
record BankAccount(@AggregateId AccountId id, long balanceCents) {
  static BankAccount open(AccountOpened e) {
    return new BankAccount(e.id(), 0);
  }

  BankAccount apply(MoneyEvent e) {
    return this;
  }

  BankAccount apply(MoneyWithdrawn e) {
    return this;
  }
}
