package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;

/** An aggregate with both column kinds that asks for the asynchronous repository too. */
@DomainEvents
sealed interface WalletEvent permits WalletOpened, Credited {}

record WalletOpened(String id, String owner, String email) implements WalletEvent {}

record Credited(long cents) implements WalletEvent {}

@Aggregate(name = "wallet", events = WalletEvent.class, async = true)
record Wallet(@AggregateId String id, @Indexed String owner, @Unique String email, long cents) {
  static Wallet open(WalletOpened e) {
    return new Wallet(e.id(), e.owner(), e.email(), 0);
  }

  Wallet apply(Credited e) {
    return new Wallet(id, owner, email, cents + e.cents());
  }
}
