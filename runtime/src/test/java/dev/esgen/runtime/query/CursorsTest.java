package dev.esgen.runtime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class CursorsTest {

  @Test
  void aKeySurvivesTheRoundTripWhateverItsCharacters() {
    Map<String, AttributeValue> key = Map.of(
        "pkey", AttributeValue.fromS("bank-account-1"),
        "ix0_pk", AttributeValue.fromS("bank-account#owner#A;n=n\\u0000ü"),
        "aid", AttributeValue.fromS("42"));
    assertEquals(key, Cursors.decode(Cursors.encode(key)));
  }

  @Test
  void somethingElseIsNotACursor() {
    assertThrows(IllegalArgumentException.class, () -> Cursors.decode("not a cursor!"));
    assertThrows(IllegalArgumentException.class, () -> Cursors.decode("bm9wZQ"));
    assertThrows(IllegalArgumentException.class, () -> PageRequest.first(0));
    assertThrows(IllegalArgumentException.class, () -> PageRequest.first(101));
  }
}
