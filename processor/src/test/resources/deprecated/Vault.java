package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Unique;

@DomainEvents
sealed interface VaultEvent permits VaultOpened {}

record VaultOpened(String id, String code) implements VaultEvent {}

/** @deprecated vaults move to the new store */
@Deprecated(forRemoval = true)
@Aggregate(name = "vault", events = VaultEvent.class, async = true)
record Vault(@AggregateId String id, @Unique String code) {
  static Vault open(VaultOpened e) {
    return new Vault(e.id(), e.code());
  }
}
