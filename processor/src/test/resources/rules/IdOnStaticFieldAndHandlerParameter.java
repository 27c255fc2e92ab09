package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@Aggregate(name = "note", events = NoteEvent.class)
record Note(String id) {
  @AggregateId static String DEFAULT_ID = "none";

  static Note open(@AggregateId NoteOpened e) {
    return new Note(e.id());
  }
}

@DomainEvents
sealed interface NoteEvent permits NoteOpened {}

record NoteOpened(String id) implements NoteEvent {}
