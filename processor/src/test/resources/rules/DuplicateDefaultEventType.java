package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;
import java.util.UUID;

@DomainEvents
sealed interface AccountEvent permits AccountOpened, Legacy.Opened, Modern.Opened {}

record AccountOpened(AccountId id) implements AccountEvent {}

final class Legacy {
  record Opened() implements AccountEvent {}
}

final class Modern {
  record Opened() implements AccountEvent {} // modern
}

record AccountId(UUID value) {}

@Aggregate(name = "bank-account", events = AccountEvent.class)
record BankAccount(@AggregateId AccountId id) {
  static BankAccount open(AccountOpened e) {
    return new BankAccount(e.id());
  }

  BankAccount apply(AccountEvent e) {
    return this;
  }
}
