package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id) {
  static Note open(NoteOpened e) {
    return new Note(e.id());
  }

  Note apply(NoteEdit<?> e) {
    return this;
  }
}

@DomainEvents
sealed interface NoteEvent permits NoteOpened, NoteEdit {}

record NoteOpened(String id) implements NoteEvent {}

sealed interface NoteEdit<T> extends NoteEvent permits NoteRenamed, NoteResized {
  T value();
}

record NoteRenamed(String value) implements NoteEdit<String> {}

record NoteResized(Integer value) implements NoteEdit<Integer> {}
