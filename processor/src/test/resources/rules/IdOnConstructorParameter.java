package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@Aggregate(name = "note", events = NoteEvent.class)
record Note(String id, String text) {
  Note(@AggregateId String id, String text) {
    this.id = id;
    this.text = text;
  }

  static Note open(NoteOpened e) {
    return new Note(e.id(), "");
  }
}

@DomainEvents
sealed interface NoteEvent permits NoteOpened {}

record NoteOpened(String id) implements NoteEvent {}
