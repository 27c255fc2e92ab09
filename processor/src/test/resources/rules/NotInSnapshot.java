package fixture;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;

@DomainEvents
sealed interface RoomEvent permits RoomOpened {}

record RoomOpened(String id, String owner) implements RoomEvent {}

@Aggregate(name = "room", events = RoomEvent.class)
final class Room {
  @AggregateId public transient String id;
  @Indexed @JsonIgnore public String owner;

  public Room() {}

  static Room open(RoomOpened e) {
    Room room = new Room();
    room.id = e.id();
    room.owner = e.owner();
    return room;
  }
}

@DomainEvents
sealed interface LampEvent permits LampFitted {}

record LampFitted(String id, String code) implements LampEvent {}

// Written by Jackson, so no error: @JsonIgnore(false) and a transient field named by @JsonProperty.
@Aggregate(name = "lamp", events = LampEvent.class)
final class Lamp {
  @AggregateId @JsonIgnore(false) public String id;
  @Indexed @JsonProperty public transient String code;

  public Lamp() {}

  static Lamp fit(LampFitted e) {
    Lamp lamp = new Lamp();
    lamp.id = e.id();
    lamp.code = e.code();
    return lamp;
  }
}

@DomainEvents
sealed interface DoorEvent permits DoorFitted {}

record DoorFitted(String id, String code) implements DoorEvent {}

@Aggregate(name = "door", events = DoorEvent.class)
record Door(@AggregateId String id, @Unique @JsonIgnore String code) {
  static Door fit(DoorFitted e) {
    return new Door(e.id(), e.code());
  }
}
