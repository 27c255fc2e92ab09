package dev.esgen.processor.functional.ticket;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import java.util.UUID;

/** A plain UUID id, no index columns, and one handler taking the sealed root. */
@Aggregate(name = "ticket", events = TicketEvent.class, shards = 1, snapshotEvery = 10, snapshotsToKeep = 1)
public record Ticket(@AggregateId UUID id, String title, int comments, boolean resolved) {

  static Ticket open(TicketEvent.Opened e) {
    return new Ticket(e.id(), e.title(), 0, false);
  }

  Ticket apply(TicketEvent e) {
    if (e instanceof TicketEvent.Commented) {
      return new Ticket(id, title, comments + 1, resolved);
    }
    if (e instanceof TicketEvent.Resolved) {
      return new Ticket(id, title, comments, true);
    }
    return this;
  }
}
