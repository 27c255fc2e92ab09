package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;
import dev.esgen.annotations.Layout;

/**
 * A tip-layout aggregate whose name does not take an "s" for its plural and whose column is stored under
 * another name than its component's; and one with no index column at all.
 */
@DomainEvents
sealed interface AddressEvent permits AddressAdded {}

record AddressAdded(String id, String city) implements AddressEvent {}

@Aggregate(name = "address", events = AddressEvent.class, layout = Layout.TIP)
record Address(@AggregateId String id, @Indexed(column = "city_name") String city) {
  static Address add(AddressAdded e) {
    return new Address(e.id(), e.city());
  }
}

@DomainEvents
sealed interface NoteEvent permits NoteWritten {}

record NoteWritten(String id) implements NoteEvent {}

@Aggregate(name = "note", events = NoteEvent.class, async = true)
record Note(@AggregateId String id) {
  static Note write(NoteWritten e) {
    return new Note(e.id());
  }
}
