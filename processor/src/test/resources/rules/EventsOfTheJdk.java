package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;

@Aggregate(name = "thing", events = String.class)
record Thing(@AggregateId String id) {
  static Thing open(String e) {
    return new Thing(e);
  }
}
