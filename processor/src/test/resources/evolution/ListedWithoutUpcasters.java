package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;
import java.util.List;

/** Lists the upcasters class, and besides it what holds no upcaster. */
@DomainEvents(upcasters = {
    AccountUpcasters.class,
    int.class,
    String[].class,
    Object.class})
sealed interface AccountEvent permits AccountOpened, MoneyDeposited {}

@EventType("account-opened")
record AccountOpened(String id) implements AccountEvent {}

@EventType("money-deposited")
record MoneyDeposited(long cents) implements AccountEvent {}

final class AccountUpcasters {
  private AccountUpcasters() {}

  @Upcast(type = "transfer-booked", from = 1)
  static List<AccountEvent> transfer(ObjectNode v1) {
    return List.of(new MoneyDeposited(v1.get("cents").asLong()));
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
