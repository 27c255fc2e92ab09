package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;
import java.io.IOException;

@DomainEvents
sealed interface TicketEvent permits TicketOpened, TicketClosed {}

record TicketOpened(String id) implements TicketEvent {}

record TicketClosed() implements TicketEvent {}

@Aggregate(name = "ticket", events = TicketEvent.class)
record Ticket(@AggregateId String id) {
  static Ticket open(TicketOpened e) throws IOException {
    return new Ticket(e.id());
  }

  Ticket apply(TicketClosed e) throws Exception {
    return this;
  }
}
