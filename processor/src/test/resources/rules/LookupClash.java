package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Unique;

@DomainEvents
sealed interface TicketEvent permits TicketOpened {}

record TicketOpened(String key) implements TicketEvent {}

@Aggregate(name = "ticket", events = TicketEvent.class)
record Ticket(@AggregateId String key, @Unique String id) {
  static Ticket open(TicketOpened e) {
    return new Ticket(e.key(), null);
  }
}
