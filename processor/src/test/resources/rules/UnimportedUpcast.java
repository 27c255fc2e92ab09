package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
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

@EventType(value = "note-opened", version = 2)
record NoteOpened(String id) implements NoteEvent {
  @Upcast(from = 1)
  static ObjectNode fromVersion1(ObjectNode v1) {
    return v1;
  }
}
