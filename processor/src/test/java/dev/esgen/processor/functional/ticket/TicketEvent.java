package dev.esgen.processor.functional.ticket;

import dev.esgen.annotations.DomainEvents;
import java.util.UUID;

/** Events nested in their root; the aggregate handles every event, the creating one included, in one apply. */
@DomainEvents
public sealed interface TicketEvent {

  record Opened(UUID id, String title) implements TicketEvent {}

  record Commented(String text) implements TicketEvent {}

  record Resolved() implements TicketEvent {}
}
