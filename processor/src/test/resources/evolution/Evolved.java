package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;
import java.io.IOException;
import java.util.List;

@DomainEvents(upcasters = AccountUpcasters.class)
sealed interface AccountEvent permits AccountOpened, MoneyEvent, AccountClosed {}

sealed interface MoneyEvent extends AccountEvent permits MoneyDeposited, MoneyWithdrawn {}

@EventType(value = "account-opened", version = 2, aliases = "account-created")
record AccountOpened(String id, String owner) implements AccountEvent {
  @Upcast(from = 1)
  static ObjectNode ownerWasName(ObjectNode v1) {
    return v1.set("owner", v1.remove("name"));
  }
}

@EventType(value = "money-deposited", version = 3)
record MoneyDeposited(long cents) implements MoneyEvent {
  @Upcast(from = 1)
  static MoneyDeposited fromWholeEuros(ObjectNode v1) {
    return new MoneyDeposited(v1.get("amount").asLong() * 100);
  }

  @Upcast(from = 2)
  static ObjectNode centsFromEuros(ObjectNode v2) throws IOException {
    return v2.put("cents", v2.remove("euros").asLong() * 100);
  }

  @Upcast(type = "cash-in", from = 1)
  static MoneyDeposited fromCashIn(ObjectNode v1) {
    return new MoneyDeposited(v1.get("cents").asLong());
  }
}

@EventType("money-withdrawn")
record MoneyWithdrawn(long cents) implements MoneyEvent {}

@EventType(value = "account-closed", aliases = {"account-terminated", "account-ended"})
record AccountClosed() implements AccountEvent {}

final class AccountUpcasters {
  private AccountUpcasters() {}

  @Upcast(type = "transfer-booked", from = 1)
  static ObjectNode feeWasImplicit(ObjectNode v1) {
    return v1.put("fee", 0);
  }

  @Upcast(type = "transfer-booked", from = 2)
  static List<? extends MoneyEvent> split(ObjectNode v2) {
    return List.of(new MoneyWithdrawn(v2.get("cents").asLong()), new MoneyWithdrawn(v2.get("fee").asLong()));
  }

  @Upcast(type = "audit-noted", from = 1)
  static List<AccountEvent> dropped(ObjectNode v1) {
    return List.of();
  }
}

@Aggregate(name = "bank-account", events = AccountEvent.class, snapshotVersion = 2)
record BankAccount(@AggregateId String id, String owner, long balanceCents) {
  static BankAccount open(AccountOpened e) {
    return new BankAccount(e.id(), e.owner(), 0);
  }

  BankAccount apply(MoneyEvent e) {
    return e instanceof MoneyDeposited deposited
        ? new BankAccount(id, owner, balanceCents + deposited.cents())
        : new BankAccount(id, owner, balanceCents - ((MoneyWithdrawn) e).cents());
  }

  BankAccount apply(AccountClosed e) {
    return this;
  }
}
