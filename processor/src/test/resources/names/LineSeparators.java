package fixture;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;

/**
 * Stored names holding U+2028 and U+2029, which Java allows in a string literal but JavaPoet ends a line
 * at: the stored name, an alias, a name read at an older version and a retired type's.
 */
@DomainEvents
sealed interface NoteEvent permits NoteWritten, NoteEdited {}

@EventType(value = "note\u2028written", aliases = "note\u2029created")
record NoteWritten(String id) implements NoteEvent {}

@EventType(value = "note\u2029edited", version = 2)
record NoteEdited(String text) implements NoteEvent {
  @Upcast(from = 1)
  static ObjectNode textWasBody(ObjectNode v1) {
    return v1.set("text", v1.remove("body"));
  }

  @Upcast(type = "note\u2028retitled", from = 1)
  static NoteEdited retitled(ObjectNode v1) {
    return new NoteEdited(v1.get("title").asText());
  }
}

@Aggregate(name = "note", events = NoteEvent.class)
record Note(@AggregateId String id, String text) {
  static Note write(NoteWritten e) {
    return new Note(e.id(), "");
  }

  Note apply(NoteEdited e) {
    return new Note(id, e.text());
  }
}
