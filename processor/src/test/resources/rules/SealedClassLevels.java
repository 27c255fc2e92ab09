package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed class LedgerEvent permits LedgerOpened, Booking {
  public LedgerEvent() {}
}

final class LedgerOpened extends LedgerEvent {
  public String id;

  public LedgerOpened() {}
}

sealed class Booking extends LedgerEvent permits Credited {
  public long cents;

  public Booking() {}
}

final class Credited extends Booking {
  public String reference;

  public Credited() {}
}

@Aggregate(name = "ledger", events = LedgerEvent.class)
record Ledger(@AggregateId String id, long cents) {
  static Ledger open(LedgerOpened e) {
    return new Ledger(e.id, 0);
  }

  Ledger apply(Credited e) {
    return new Ledger(id, cents + e.cents);
  }
}
