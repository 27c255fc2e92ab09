package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;

@DomainEvents
sealed interface NoteEvent permits NoteOpened, NoteEdit {}

record NoteOpened(String id) implements NoteEvent {}

@EventType("note-edit")
sealed interface NoteEdit extends NoteEvent permits NoteRenamed, NoteMoved {}

record NoteRenamed(String title) implements NoteEdit {}

record NoteMoved(String folder) implements NoteEdit {}

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id) {
  static Note open(NoteOpened e) {
    return new Note(e.id());
  }

  Note apply(NoteEdit e) {
    return this;
  }
}
