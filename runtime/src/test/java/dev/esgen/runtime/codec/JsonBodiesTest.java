package dev.esgen.runtime.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.esgen.runtime.error.ItemTooLargeException;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonBodiesTest {

  record Opened(String owner) {}

  record Deposited(long cents) {}

  record Measured(BigDecimal amount, Map<String, String> labels) {}

  private final JsonBodies bodies = new JsonBodies(EsgenJson.newObjectMapper(), Opened.class, Deposited.class);

  @Test
  void readsWhatItWroteAsTheClassAtTheIndex() throws IOException {
    byte[] body = bodies.write(1, new Deposited(500));

    Deposited back = bodies.read(1, body);
    assertEquals(new Deposited(500), back);
    assertEquals(new Opened("Ann"), bodies.<Opened>read(0, bodies.write(0, new Opened("Ann"))));
  }

  @Test
  void readsAnUpcastTreeAsTheClassAtTheIndex() throws IOException {
    var json = EsgenJson.newObjectMapper().createObjectNode().put("cents", 7);

    assertEquals(new Deposited(7), bodies.<Deposited>read(1, json));
  }

  @Test
  void theIndexNotTheBodyDecidesTheClass() throws IOException {
    byte[] deposited = bodies.write(1, new Deposited(500));

    // esgen's mapper ignores unknown properties, so the body reads as an Opened without an owner.
    assertEquals(new Opened(null), bodies.<Opened>read(0, deposited));
    assertThrows(IOException.class, () -> bodies.read(1, "not json".getBytes()));
  }

  /**
   * Jackson refuses, when reading only, numbers over 1,000 characters and property names over 50,000 by
   * default: a body holding one would be stored and then fail every load of its stream. Whatever fits an
   * item reads back, with esgen's mapper and with one built without esgen's settings.
   */
  @Test
  void readsBackNumbersAndNamesLongerThanJacksonReadsByDefault() throws IOException {
    int itemBytes = (int) ItemTooLargeException.LIMIT_BYTES;
    Measured large = new Measured(new BigDecimal("7".repeat(100_000)), Map.of("k".repeat(200_000), "v"));
    for (ObjectMapper mapper : new ObjectMapper[] {EsgenJson.newObjectMapper(), JsonMapper.builder().build()}) {
      JsonBodies measured = new JsonBodies(mapper, Measured.class);
      byte[] body = measured.write(0, large);

      assertEquals(large, measured.<Measured>read(0, body));
      assertEquals(large.amount(), measured.readTree(body).get("amount").decimalValue());
      // The mapper itself is left as it was given.
      assertTrue(mapper.getFactory().streamReadConstraints().getMaxNumberLength() < itemBytes);
    }
  }
}
