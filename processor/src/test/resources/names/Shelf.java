package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Unique;

/**
 * Events named like the java.lang types generated code uses, and columns named like generated members,
 * constants and types.
 */
@DomainEvents
sealed interface ShelfEvent permits Override, NullPointerException {}

record Override(String id) implements ShelfEvent {}

record NullPointerException(String page) implements ShelfEvent {}

@Aggregate(name = "shelf", events = ShelfEvent.class, async = true)
record Shelf(@AggregateId String id, @Indexed String page, @Indexed String all, @Unique String SKU,
    @Indexed String IndexColumns, @Unique String IndexValues, @Indexed String ShelfRepository) {
  static Shelf open(Override e) {
    return new Shelf(e.id(), null, null, null, null, null, null);
  }

  Shelf apply(NullPointerException e) {
    return new Shelf(id, e.page(), all, SKU, IndexColumns, IndexValues, ShelfRepository);
  }
}
