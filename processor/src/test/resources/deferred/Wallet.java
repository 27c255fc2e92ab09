package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;

@DomainEvents
sealed interface WalletEvent permits WalletOpened {}

record WalletOpened(String id) implements WalletEvent {}

/** {@code Currency} does not exist until another processor generates it in the first round. */
@Aggregate(name = "wallet", events = WalletEvent.class)
record Wallet(@AggregateId String id, @Indexed Currency currency) {
  static Wallet open(WalletOpened e) {
    return new Wallet(e.id(), null);
  }
}
