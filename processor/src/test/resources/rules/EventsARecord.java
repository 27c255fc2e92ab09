package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
record ThingOpened(String id) {}

@Aggregate(name = "thing", events = ThingOpened.class)
record Thing(@AggregateId String id) {
  static Thing open(ThingOpened e) {
    return new Thing(e.id());
  }
}
