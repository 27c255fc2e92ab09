package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.Indexed;

@DomainEvents
sealed interface TicketEvent permits TicketOpened {}

record TicketOpened(String id) implements TicketEvent {}

@Aggregate(name = "ticket", events = TicketEvent.class)
record Ticket(@AggregateId Id id, @Indexed Status status) {
  private record Id(String value) {}

  private enum Status { OPEN }

  static Ticket open(TicketOpened e) {
    return new Ticket(new Id(e.id()), Status.OPEN);
  }
}
