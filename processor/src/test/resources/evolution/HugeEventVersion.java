package fixture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

@EventType(value = "money-deposited", version = 20240115)
record MoneyDeposited(long cents) implements AccountEvent {
  @Upcast(from = 20240114)
  static ObjectNode centsFromEuros(ObjectNode v20240114) {
    return v20240114.put("cents", v20240114.remove("euros").asLong() * 100);
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
