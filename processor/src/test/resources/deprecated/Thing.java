package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Upcast;

/** A domain winding things down: an event, an upcaster, an id's accessor and a column type are deprecated. */
@DomainEvents
@SuppressWarnings("deprecation")
sealed interface ThingEvent permits ThingOpened, ThingRenamed, ThingNoted {}

record ThingOpened(ThingId id) implements ThingEvent {}

@EventType(value = "thing-renamed", version = 2)
record ThingRenamed(String name) implements ThingEvent {
  /** @deprecated no version 1 is stored any more */
  @Deprecated
  @Upcast(from = 1)
  static ObjectNode titleWasName(ObjectNode v1) {
    return v1.set("name", v1.remove("title"));
  }
}

/** @deprecated no longer written */
@Deprecated
record ThingNoted(String note) implements ThingEvent {}

record ThingId(String value) {
  /** @deprecated read through {@code toString()} from now on */
  @Deprecated
  @Override
  public String value() {
    return value;
  }
}

/** @deprecated things will have colours */
@Deprecated
enum Shade { LIGHT, DARK }

@Aggregate(name = "thing", events = ThingEvent.class)
@SuppressWarnings("deprecation")
record Thing(@AggregateId ThingId id, String name, @Indexed Shade shade) {
  static Thing open(ThingOpened e) {
    return new Thing(e.id(), "", Shade.LIGHT);
  }

  Thing apply(ThingRenamed e) {
    return new Thing(id, e.name(), shade);
  }

  Thing apply(ThingNoted e) {
    return this;
  }
}
