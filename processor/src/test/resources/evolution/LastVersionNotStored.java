package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;

@DomainEvents
sealed interface AccountEvent permits AccountOpened, MoneyDeposited {}

@EventType("account-opened")
record AccountOpened(String id) implements AccountEvent {}

/** No version follows the largest int: raising the version past it is no advice to give. */
@EventType("money-deposited")
record MoneyDeposited(long cents) implements AccountEvent {
  @Upcast(from = 2147483647)
  static ObjectNode last(ObjectNode json) {
    return json;
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
