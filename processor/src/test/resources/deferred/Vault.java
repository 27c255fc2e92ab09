package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Indexed;

@DomainEvents
sealed interface VaultEvent permits VaultOpened {}

@EventType(VaultNames.OPENED)
record VaultOpened(String id) implements VaultEvent {}

/** {@code VaultNames} and its constants do not exist until another processor generates them. */
@Aggregate(name = VaultNames.NAME, events = VaultEvent.class, shards = VaultNames.SHARDS)
record Vault(@AggregateId String id, @Indexed(column = VaultNames.OWNER) String owner) {
  static Vault open(VaultOpened e) {
    return new Vault(e.id(), null);
  }
}
