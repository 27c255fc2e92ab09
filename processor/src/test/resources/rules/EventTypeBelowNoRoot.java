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
}

@DomainEvents
sealed interface NoteEvent permits NoteOpened {}

@EventType("note-opened")
record NoteOpened(String id) implements NoteEvent {}

sealed interface ArchiveEvent permits ArchiveStep {}

sealed interface ArchiveStep extends ArchiveEvent permits NoteArchived {}

@EventType("note-archived")
record NoteArchived(String id) implements ArchiveStep {}
