package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

class Domain {
  @DomainEvents
  sealed interface ThingEvent permits Hidden.ThingOpened, ThingRenamed {}

  private static class Hidden {
    record ThingOpened(String id) implements ThingEvent {}
  }

  record ThingRenamed(String name) implements ThingEvent {}

  private static class Model {
    @Aggregate(name = "thing", events = ThingEvent.class)
    record Thing(@AggregateId String id, String name) {
      static Thing open(Hidden.ThingOpened e) {
        return new Thing(e.id(), "");
      }

      Thing apply(ThingRenamed e) {
        return new Thing(id, e.name());
      }
    }
  }
}
