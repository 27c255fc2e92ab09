package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;

@Aggregate(name = "note", events = int.class)
record Note(@AggregateId String id) {}
