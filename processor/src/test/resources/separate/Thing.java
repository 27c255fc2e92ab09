package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;

@Aggregate(name = "thing", events = ThingEvent.class)
public record Thing(@AggregateId String id, String name) {
  static Thing open(ThingOpened e) {
    return new Thing(e.id(), "");
  }

  Thing apply(ThingRenamed e) {
    return new Thing(id, e.name());
  }
}
