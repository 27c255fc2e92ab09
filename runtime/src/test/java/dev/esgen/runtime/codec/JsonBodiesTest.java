package dev.esgen.runtime.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class JsonBodiesTest {

  record Opened(String owner) {}

  record Deposited(long cents) {}

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
}
