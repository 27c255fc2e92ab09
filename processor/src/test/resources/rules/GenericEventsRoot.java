package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface NoteEvent<T> permits NoteOpened {}

record NoteOpened(String id) implements NoteEvent<String> {}

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id) {
  static Note open(NoteOpened e) {
    return new Note(e.id());
  }
}
