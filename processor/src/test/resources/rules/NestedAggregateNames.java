package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;

class Outer {
  @DomainEvents
  sealed interface ThingEvent permits ThingEvent.Opened, ThingEvent.Renamed {
    record Opened(String key) implements ThingEvent {}

    @EventType("") record Renamed(String name) implements ThingEvent {}
  }

  @Aggregate(name = "thing", events = ThingEvent.class)
  record Thing(@AggregateId String key, @Unique String id, @Indexed String fooBar, @Indexed String foo_bar) {
    private static Thing open(ThingEvent.Opened e) {
      return new Thing(e.key(), null, null, null);
    }

    private Thing apply(ThingEvent.Renamed e) {
      return this;
    }
  }
}
