package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import lib.LibEvent;
import lib.LibOpened;

@Aggregate(name = "shelf", events = LibEvent.class)
public record Shelf(@AggregateId String id) {
  static Shelf open(LibOpened e) {
    return new Shelf(e.id());
  }

  Shelf apply(LibEvent e) {
    return this;
  }
}
