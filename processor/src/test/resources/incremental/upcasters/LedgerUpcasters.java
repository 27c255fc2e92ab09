package fixture.upcasters;

import com.fasterxml.jackson.databind.node.ObjectNode;
import fixture.ledger.LedgerEvent;
import java.util.List;

/** Listed by LedgerEvent, in a package of its own: one upcaster returns JSON, one events. */
public final class LedgerUpcasters {
  private LedgerUpcasters() {}

  @dev.esgen.annotations.Upcast(type = "money-deposited", from = 1)
  public static ObjectNode centsFromEuros(ObjectNode v1) {
    return v1.put("cents", v1.remove("euros").asLong() * 100);
  }

  @dev.esgen.annotations.Upcast(type = "fee-charged", from = 1)
  public static List<LedgerEvent.Deposited> feeRefunded(ObjectNode v1) {
    return List.of();
  }
}
