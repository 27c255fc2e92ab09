package fixture;

import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id, @Indexed String owner) {
  static Note open(NoteOpened e) {
    return new Note(e.id(), e.owner());
  }
}

@DomainEvents
sealed interface NoteEvent permits NoteOpened {}

record NoteOpened(String id, String owner) implements NoteEvent {}
