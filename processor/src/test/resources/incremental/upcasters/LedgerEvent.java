package fixture.ledger;

import dev.esgen.annotations.DomainEvents;
import dev.esgen.annotations.EventType;

@DomainEvents(upcasters = fixture.upcasters.LedgerUpcasters.class)
public sealed interface LedgerEvent {
  @EventType("ledger-opened")
  record Opened(String id) implements LedgerEvent {}

  @EventType(value = "money-deposited", version = 2)
  record Deposited(long cents) implements LedgerEvent {}
}
