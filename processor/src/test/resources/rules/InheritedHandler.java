package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface ThingEvent permits ThingOpened, ThingRenamed {}

record ThingOpened(String id) implements ThingEvent {}

record ThingRenamed(String name) implements ThingEvent {}

abstract class NamedThing {
  public String name;

  Thing apply(ThingRenamed e) {
    Thing renamed = (Thing) this;
    renamed.name = e.name();
    return renamed;
  }
}

@Aggregate(name = "thing", events = ThingEvent.class)
final class Thing extends NamedThing {
  @AggregateId public String id;

  static Thing open(ThingOpened e) {
    Thing thing = new Thing();
    thing.id = e.id();
    return thing;
  }
}
