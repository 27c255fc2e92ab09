package fixture.upcasters;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Listed nowhere, and its upcaster returns JSON: nothing in it names the events it is for. */
public final class JsonOnlyUpcasters {
  private JsonOnlyUpcasters() {}

  @dev.esgen.annotations.Upcast(type = "money-deposited", from = 1)
  public static ObjectNode euros(ObjectNode v1) {
    return v1;
  }
}
