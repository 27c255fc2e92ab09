package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import java.util.List;

@DomainEvents
sealed interface ThingEvent permits ThingOpened, ThingRenamed {}

record ThingOpened(String id) implements ThingEvent {}

record ThingRenamed(String name) implements ThingEvent {}

@Aggregate(name = "thing", events = ThingEvent.class)
record Thing(@AggregateId String id, List<ThingEvent> history) {
  static Thing open(ThingOpened e) {
    return new Thing(e.id(), List.of(e));
  }

  Thing apply(ThingRenamed e) {
    return this;
  }
}
