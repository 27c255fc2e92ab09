package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;

/** Compiled after BankAccount, in a compilation of its own, under the same stored name. */
@Aggregate(name = "bank-account", events = AccountEvent.class)
public record SavingsAccount(@AggregateId AccountId id) {
  static SavingsAccount open(AccountOpened e) {
    return new SavingsAccount(e.id());
  }

  SavingsAccount apply(AccountEvent e) {
    return this;
  }
}
