package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id) {
  static Note open(NoteOpened e) {
    return new Note(e.id());
  }
}

@DomainEvents
sealed interface NoteEvent permits NoteOpened {}

record NoteOpened(String id) implements NoteEvent {}

/** Written by hand under the name esgen generates. */
final class NoteRepository {}
