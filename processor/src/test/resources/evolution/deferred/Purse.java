package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;

/** {@code PurseUpcasters} does not exist until another processor generates it in the first round. */
@DomainEvents(upcasters = PurseUpcasters.class)
sealed interface PurseEvent permits PurseOpened {}

@EventType(value = "purse-opened", version = 2)
record PurseOpened(String id) implements PurseEvent {}

@Aggregate(name = "purse", events = PurseEvent.class)
record Purse(@AggregateId String id) {
  static Purse open(PurseOpened e) {
    return new Purse(e.id());
  }
}
