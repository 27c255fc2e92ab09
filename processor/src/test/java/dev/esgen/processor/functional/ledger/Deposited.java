package dev.esgen.processor.functional.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;

/** Version 3: version 1 stored whole euros as "amount", version 2 as "euros". */
@EventType(value = "money-deposited", version = 3)
public record Deposited(long cents) implements LedgerEvent {

  @Upcast(from = 1)
  static ObjectNode amountWasRenamedEuros(ObjectNode v1) {
    v1.set("euros", v1.remove("amount"));
    return v1;
  }

  @Upcast(from = 2)
  static ObjectNode centsFromEuros(ObjectNode v2) {
    return v2.put("cents", v2.remove("euros").asLong() * 100);
  }

  /** "cash-in" was a type of its own, with no class any more: each one is a deposit now. */
  @Upcast(type = "cash-in", from = 1)
  static Deposited fromCashIn(ObjectNode v1) {
    return new Deposited(v1.get("cents").asLong());
  }
}
