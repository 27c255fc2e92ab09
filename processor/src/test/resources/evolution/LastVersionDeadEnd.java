package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;

@DomainEvents(upcasters = AccountUpcasters.class)
sealed interface AccountEvent permits AccountOpened {}

@EventType("account-opened")
record AccountOpened(String id) implements AccountEvent {}

/** The JSON of a version after the largest int has no version number to be read at. */
final class AccountUpcasters {
  @Upcast(type = "transfer-booked", from = 2147483647)
  static ObjectNode transferLast(ObjectNode json) {
    return json;
  }
}

@Aggregate(name = "bank-account", events = AccountEvent.class)
record BankAccount(@AggregateId String id, long balanceCents) {
  static BankAccount open(AccountOpened e) {
    return new BankAccount(e.id(), 0);
  }
}
