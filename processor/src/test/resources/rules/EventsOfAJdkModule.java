package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;

@Aggregate(name = "thing", events = jdk.jfr.Event.class)
record Thing(@AggregateId String id) {
  static Thing open(jdk.jfr.Event e) {
    return new Thing("id");
  }
}
