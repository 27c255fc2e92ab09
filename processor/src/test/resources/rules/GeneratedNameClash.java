package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface NoteEvent permits NoteOpened {}

record NoteOpened(String id) implements NoteEvent {}

final class Outer {
  @Aggregate(name = "outer-a", events = NoteEvent.class)
  record A(@AggregateId String id) {
    static A open(NoteOpened e) {
      return new A(e.id());
    }
  }
}

@Aggregate(name = "outer-a-too", events = NoteEvent.class)
record Outer_A(@AggregateId String id) {
  static Outer_A open(NoteOpened e) {
    return new Outer_A(e.id());
  }
}
