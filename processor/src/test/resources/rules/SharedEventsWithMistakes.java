package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id) {
  static Note open(NoteOpened e) {
    return new Note(e.id());
  }

  Note apply(NoteEvent e) {
    return this;
  }
}

@Aggregate(name = "memo", events = NoteEvent.class)
record Memo(@AggregateId String id) {
  static Memo open(NoteOpened e) {
    return new Memo(e.id());
  }

  Memo apply(NoteEvent e) {
    return this;
  }
}

@DomainEvents
sealed interface NoteEvent permits NoteOpened, NoteChanged, NoteEdited {}

@EventType("note-opened")
record NoteOpened(String id, Runnable onOpen) implements NoteEvent {}

@EventType("note-changed")
record NoteChanged(String text) implements NoteEvent {}

@EventType("note-changed")
record NoteEdited(String text) implements NoteEvent {}
