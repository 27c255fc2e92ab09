package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import java.time.Clock;
import java.time.Instant;

@DomainEvents
sealed interface ThingEvent permits ThingOpened, ThingRenamed {}

record ThingOpened(String id) implements ThingEvent {}

record ThingRenamed(String name) implements ThingEvent {}

@Aggregate(name = "thing", events = ThingEvent.class)
record Thing(@AggregateId String id, Instant openedAt) {
  static Thing open(ThingOpened e, Clock clock) {
    return new Thing(e.id(), clock.instant());
  }

  Thing apply(ThingRenamed e) {
    return this;
  }
}
