package fixture.upcasters;

import com.fasterxml.jackson.databind.node.ObjectNode;
import fixture.ledger.LedgerEvent;

/** Listed nowhere. */
public final class StrayUpcasters {
  private StrayUpcasters() {}

  @dev.esgen.annotations.Upcast(type = "bonus-paid", from = 1)
  public static LedgerEvent.Deposited bonus(ObjectNode v1) {
    return new LedgerEvent.Deposited(v1.get("cents").asLong());
  }
}
