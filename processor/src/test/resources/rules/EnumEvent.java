package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface NoteEvent permits NoteOpened, NoteFlag {}

record NoteOpened(String id) implements NoteEvent {}

enum NoteFlag implements NoteEvent { PINNED }

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id) {
  static Note open(NoteOpened e) {
    return new Note(e.id());
  }

  Note apply(NoteFlag e) {
    return this;
  }
}
