package fixture.other;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.esgen.annotations.Upcast;

public final class MoreUpcasters {

  private MoreUpcasters() {}

  @Upcast(type = "money-deposited", from = 1)
  static ObjectNode centsFromEuros(ObjectNode v1) {
    return v1.put("cents", v1.remove("euros").asLong() * 100);
  }
}
