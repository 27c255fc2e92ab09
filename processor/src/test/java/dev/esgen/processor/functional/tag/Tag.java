package dev.esgen.processor.functional.tag;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.Layout;

/** An aggregate in the tip layout with a record-wrapped String id: any string, so its limits apply. */
@Aggregate(name = "tag", events = TagEvent.class, layout = Layout.TIP)
public record Tag(@AggregateId TagId id, String label) {

  static Tag create(TagEvent.Created e) {
    return new Tag(e.id(), e.label());
  }

  Tag apply(TagEvent.Relabelled e) {
    return new Tag(id, e.label());
  }
}
