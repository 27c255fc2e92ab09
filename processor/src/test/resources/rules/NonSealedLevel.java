package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface ThingEvent permits ThingOpened, ThingChanged {}

record ThingOpened(String id) implements ThingEvent {}

non-sealed interface ThingChanged extends ThingEvent {}

record ThingRenamed(String name) implements ThingChanged {}

@Aggregate(name = "thing", events = ThingEvent.class)
record Thing(@AggregateId String id, String name) {
  static Thing open(ThingOpened e) {
    return new Thing(e.id(), "");
  }

  Thing apply(ThingChanged e) {
    return this;
  }

  Thing apply(ThingRenamed e) {
    return new Thing(id, e.name());
  }
}
