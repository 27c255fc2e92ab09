package fixture.ledger;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;

@Aggregate(name = "ledger", events = LedgerEvent.class)
public record Ledger(@AggregateId String id, long cents) {
  static Ledger open(LedgerEvent.Opened e) {
    return new Ledger(e.id(), 0);
  }

  Ledger apply(LedgerEvent.Deposited e) {
    return new Ledger(id, cents + e.cents());
  }
}
