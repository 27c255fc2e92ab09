package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import java.util.List;

@Aggregate(name = "thing", events = List.class)
record Thing(@AggregateId String id) {
  static Thing open(List<?> e) {
    return new Thing("x");
  }
}
