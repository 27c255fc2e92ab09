package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;
import java.util.List;

/**
 * Upcasters lists an event class, which esgen reads anyway, and the root itself, twice: each upcaster is
 * still one upcaster, and the root's is called since its class is listed.
 */
@DomainEvents(upcasters = {MoneyDeposited.class, AccountEvent.class, AccountEvent.class})
sealed interface AccountEvent permits AccountOpened, MoneyDeposited {
  @Upcast(type = "transfer-booked", from = 1)
  static List<AccountEvent> transfer(ObjectNode v1) {
    return List.of(new MoneyDeposited(v1.get("cents").asLong()));
  }
}

@EventType("account-opened")
record AccountOpened(String id) implements AccountEvent {}

@EventType(value = "money-deposited", version = 2)
record MoneyDeposited(long cents) implements AccountEvent {
  @Upcast(from = 1)
  static ObjectNode centsFromEuros(ObjectNode v1) {
    return v1.put("cents", v1.remove("euros").asLong() * 100);
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
}
