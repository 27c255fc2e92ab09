package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;
import java.util.UUID;

sealed interface AccountEvent permits AccountOpened, MoneyDeposited, AccountClosed {}

@EventType("account-opened")
record AccountOpened(AccountId id) implements AccountEvent {}

@EventType("money-deposited")
record MoneyDeposited(long cents) implements AccountEvent {}

record AccountClosed() implements AccountEvent {}

record AccountId(UUID value) {}

@Aggregate(
    name = "bank-account",
    events = AccountEvent.class)
record BankAccount(@AggregateId AccountId id) {
  static BankAccount open(AccountOpened e) {
    return new BankAccount(e.id());
  }

  BankAccount apply(AccountEvent e) {
    return this;
  }
}
