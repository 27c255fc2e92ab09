package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface NoteEvent permits NoteOpened, NoteChanged {}

record NoteOpened(String id) implements NoteEvent {}

record NoteChanged<T>(T value) implements NoteEvent {}

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id) {
  static Note open(NoteOpened e) {
    return new Note(e.id());
  }

  Note apply(NoteChanged<String> e) {
    return this;
  }
}
