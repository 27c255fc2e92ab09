package dev.esgen.spring.boot.ledger;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;
import java.util.List;

/** A ledger with an async repository besides its synchronous one; in a package of its own, so the shop's tests need no async client. */
@Aggregate(name = "ledger", events = LedgerEvent.class, async = true)
public record Ledger(@AggregateId String id, long balanceCents) {

  static Ledger open(LedgerOpened e) {
    return new Ledger(e.id(), 0);
  }

  Ledger apply(AmountPosted e) {
    return new Ledger(id, balanceCents + e.cents());
  }

  public List<LedgerEvent> post(long cents) {
    return List.of(new AmountPosted(cents));
  }
}
