package dev.esgen.processor.functional.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.EventType;
import dev.esgen.annotations.Upcast;

/** Version 2; stored as "ledger-created" at first, a name kept as an alias. */
@EventType(value = "ledger-opened", version = 2, aliases = "ledger-created")
public record Opened(AccountNumber id, String owner, String currency) implements LedgerEvent {

  /** Version 1 called the owner "name" and knew only euros. */
  @Upcast(from = 1)
  static ObjectNode ownerWasNameAndAllWasEuros(ObjectNode v1) {
    v1.set("owner", v1.remove("name"));
    return v1.put("currency", "EUR");
  }
}
