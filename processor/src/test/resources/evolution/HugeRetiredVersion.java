package fixture;

import com.fasterxml.jackson.databind.JsonNode;
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
  @Upcast(type = "transfer-booked", from = 1)
  static List<AccountEvent> transferV1(ObjectNode v1) {
    return List.of(new MoneyDeposited(v1.get("cents").asLong()));
  }

  @Upcast(type = "transfer-booked", from = 20240115)
  static List<AccountEvent> transferV3(ObjectNode v3) {
    return List.of(new MoneyDeposited(v3.get("amount").asLong()));
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
