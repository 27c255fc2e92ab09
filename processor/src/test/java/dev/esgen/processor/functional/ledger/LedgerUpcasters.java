package dev.esgen.processor.functional.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Upcast;
import java.util.List;

/** The upcasters of event types that no longer have a class. */
final class LedgerUpcasters {

  private LedgerUpcasters() {}

  /** A transfer was one event with its fee; it is a withdrawal and a fee now. */
  @Upcast(type = "transfer-booked", from = 1)
  static List<LedgerEvent> withdrawalAndFee(ObjectNode v1) {
    return List.of(
        new Withdrawn(v1.get("cents").asLong(), v1.get("to").asText()),
        new FeeCharged(v1.get("fee").asLong()));
  }

  /** Statements sent were recorded on the ledger once; they never changed its state and are dropped. */
  @Upcast(type = "statement-sent", from = 1)
  static List<LedgerEvent> statementsAreNotLedgerEvents(ObjectNode v1) {
    return List.of();
  }
}
