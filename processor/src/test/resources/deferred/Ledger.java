package fixture;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import dev.esgen.annotations.DomainEvents;

@DomainEvents
sealed interface LedgerEvent permits LedgerOpened {}

record LedgerOpened(String id) implements LedgerEvent {}

/** {@code LedgerRejected} does not exist until another processor generates it in the first round. */
@Aggregate(name = "ledger", events = LedgerEvent.class)
record Ledger(@AggregateId String id) {
  static Ledger open(LedgerOpened e) throws LedgerRejected {
    return new Ledger(e.id());
  }
}
