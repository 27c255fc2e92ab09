package fixture;

import dev.esgen.annotations.EventType;

@EventType("note-archived")
record NoteArchived(String id) implements NoteEvent {}
