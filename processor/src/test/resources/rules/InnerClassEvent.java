package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

class ThingEvents {
  @DomainEvents
  sealed interface ThingEvent permits ThingOpened, ThingRenamed {}

  record ThingOpened(String id) implements ThingEvent {}

  final class ThingRenamed implements ThingEvent {
    public String name;
  }
}

@Aggregate(name = "thing", events = ThingEvents.ThingEvent.class)
record Thing(@AggregateId String id, Tag tag) {
  static Thing open(ThingEvents.ThingOpened e) {
    return new Thing(e.id(), null);
  }

  Thing apply(ThingEvents.ThingRenamed e) {
    return this;
  }

  final class Tag {
    public String text;
  }
}
