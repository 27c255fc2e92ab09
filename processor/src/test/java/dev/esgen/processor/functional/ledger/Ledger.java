package dev.esgen.processor.functional.ledger;

import dev.esgen.annotations.Aggregate;
import dev.esgen.annotations.AggregateId;

/** A ledger whose stored streams were written by earlier versions of this code. */
@Aggregate(name = "ledger", events = LedgerEvent.class)
public record Ledger(@AggregateId AccountNumber id, String owner, String currency, long balanceCents, long feesCents,
    boolean closed) {

  static Ledger open(Opened e) {
    return new Ledger(e.id(), e.owner(), e.currency(), 0, 0, false);
  }

  Ledger apply(Deposited e) {
    return withBalance(balanceCents + e.cents());
  }

  Ledger apply(Withdrawn e) {
    return withBalance(balanceCents - e.cents());
  }

  Ledger apply(FeeCharged e) {
    return new Ledger(id, owner, currency, balanceCents - e.cents(), feesCents + e.cents(), closed);
  }

  Ledger apply(Closed e) {
    return new Ledger(id, owner, currency, balanceCents, feesCents, true);
  }

  private Ledger withBalance(long cents) {
    return new Ledger(id, owner, currency, cents, feesCents, closed);
  }
}
