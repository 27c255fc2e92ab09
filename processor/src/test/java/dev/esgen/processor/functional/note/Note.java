package dev.esgen.processor.functional.note;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Layout;
import java.util.UUID;

/** An aggregate in the tip layout with every tip option set, and an asynchronous repository. */
@Aggregate(name = "note", events = NoteEvent.class, layout = Layout.TIP, tipMaxBytes = 8192, tipMaxEvents = 50,
    tipSnapshot = false, async = true)
public record Note(@AggregateId UUID id, String text) {

  static Note write(NoteEvent.Written e) {
    return new Note(e.id(), e.text());
  }

  Note apply(NoteEvent.Edited e) {
    return new Note(id, e.text());
  }
}
