package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@Aggregate(name = "note", events = Note.NoteEvent.class)
record Note(@AggregateId String id) {
  static Note open(NoteOpened e) {
    return new Note(e.id());
  }

  Note apply(NoteEdit e) {
    return this;
  }

  @DomainEvents
  sealed interface NoteEvent permits NoteOpened, NoteEdit {}

  record NoteOpened(String id) implements NoteEvent {}

  private sealed interface NoteEdit extends NoteEvent permits NoteRenamed {}

  record NoteRenamed(String text) implements NoteEdit {}
}
