package fixture;

// ObjectNode is not imported: the upcaster's signature does not resolve, which javac reports.

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;
import java.util.List;

@DomainEvents
sealed interface AccountEvent permits AccountOpened, MoneyDeposited, AccountClosed {}

@EventType("account-opened")
record AccountOpened(String id) implements AccountEvent {}

@EventType(value = "money-deposited", version = 2)
record MoneyDeposited(long cents) implements AccountEvent {
  @Upcast(from = 1)
  static ObjectNode centsFromEuros(ObjectNode v1) {
    return v1.put("cents", v1.remove("amount").asLong() * 100);
  }
}

@EventType("account-closed")
record AccountClosed() implements AccountEvent {}

@Aggregate(name = "bank-account", events = AccountEvent.class)
record BankAccount(@AggregateId String id, long balanceCents) {
  static BankAccount open(AccountOpened e) {
    return new BankAccount(e.id(), 0);
  }

  BankAccount apply(MoneyDeposited e) {
    return new BankAccount(id, balanceCents + e.cents());
  }

  BankAccount apply(AccountClosed e) {
    return this;
  }
}
