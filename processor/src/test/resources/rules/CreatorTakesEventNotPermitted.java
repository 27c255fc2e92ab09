package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface ThingEvent permits ThingRenamed {}

record ThingOpened(String id) implements ThingEvent {}

record ThingRenamed(String name) implements ThingEvent {}

@Aggregate(name = "thing", events = ThingEvent.class)
record Thing(@AggregateId String id, String name) {
  static Thing open(ThingOpened e) {
    return new Thing(e.id(), "");
  }

  Thing apply(ThingRenamed e) {
    return new Thing(id, e.name());
  }
}
