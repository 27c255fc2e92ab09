package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;

@DomainEvents
sealed interface TicketEvent permits TicketOpened {}

record TicketOpened(String id) implements TicketEvent {}

@Aggregate(name = "ticket", events = TicketEvent.class)
record Ticket(@AggregateId String id, @Indexed String uRL, @Indexed(column = "url2") String URL) {
  static Ticket open(TicketOpened e) {
    return new Ticket(e.id(), null, null);
  }
}
