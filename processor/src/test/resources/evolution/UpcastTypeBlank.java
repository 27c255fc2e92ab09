package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;
import java.util.List;

@DomainEvents(upcasters = AccountUpcasters.class)
sealed interface AccountEvent permits AccountOpened, MoneyDeposited, AccountClosed {}

@EventType("account-opened")
record AccountOpened(String id) implements AccountEvent {}

@EventType("money-deposited")
record MoneyDeposited(long cents) implements AccountEvent {}

@EventType("account-closed")
record AccountClosed() implements AccountEvent {}

final class AccountUpcasters {
  @Upcast(type = " ", from = 1)
  static List<AccountEvent> split(ObjectNode v1) {
    return List.of(new MoneyDeposited(v1.get("cents").asLong()), new AccountClosed());
  }
}

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
