package dev.esgen.runtime.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.internal.item.ItemSize;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ItemSizeTest {

  @Test
  void countsNamesAndValuesByDynamoDbsRules() {
    assertEquals(4 + 9, ItemSize.of(Map.of("pkey", AttributeValue.fromS("account-3"))));
    assertEquals(1 + 2, ItemSize.of(Map.of("s", AttributeValue.fromS("\u00fc"))));          // UTF-8 bytes
    assertEquals(7 + 1000, ItemSize.of(Map.of("payload", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[1000])))));
    assertEquals(1 + 2, ItemSize.of(Map.of("n", AttributeValue.fromN("7"))));               // 1 digit
    assertEquals(1 + 2, ItemSize.of(Map.of("n", AttributeValue.fromN("7000"))));            // trailing zeros trimmed
    assertEquals(1 + 11, ItemSize.of(Map.of("n", AttributeValue.fromN("00000000000000000001234567890123456789"))));
    assertEquals(1 + 3 + 2 + 2 + 2, ItemSize.of(Map.of("l", AttributeValue.fromL(List.of(
        AttributeValue.fromN("5"), AttributeValue.fromN("7"))))));
    assertEquals(1 + 3 + 1 + (1 + 1), ItemSize.of(Map.of("m", AttributeValue.fromM(Map.of("k", AttributeValue.fromBool(true))))));
  }

  @Test
  void anIntegerCountsItsSignificantDigitsAsAnyNumberDoes() {
    for (String n : List.of("0", "-0", "7", "-7", "10", "100", "120", "-120", "1001", "99999", "1000000",
        "123456789", "9223372036854775807", "-9223372036854775808", "1.5", "1.50", "-0.001", "1e3", "12.0")) {
      java.math.BigInteger unscaled = new java.math.BigDecimal(n).stripTrailingZeros().unscaledValue().abs();
      int significant = unscaled.signum() == 0 ? 1 : unscaled.toString().length();
      assertEquals(1 + (significant + 1) / 2 + 1, ItemSize.of(Map.of("n", AttributeValue.fromN(n))), n);
    }
  }

  @Test
  void aStringCountsTheBytesItsUtf8EncodingHas() {
    for (String s : List.of("", "account-3", "\u00fc", "\u07ff\u0800", "\u20ac uro", "\ud83d\ude00 pair",
        "lone \ud83d high", "lone \ude00 low", "high at end \ud83d", "\ude00\ud83d reversed", "\uffff")) {
      assertEquals(1 + s.getBytes(StandardCharsets.UTF_8).length, ItemSize.of(Map.of("s", AttributeValue.fromS(s))), s);
      assertEquals(s.getBytes(StandardCharsets.UTF_8).length + 1, ItemSize.of(Map.of(s, AttributeValue.fromNul(true))), s);
    }
  }

  @Test
  void aListCountsAsTheAttributeThatWouldHoldIt() {
    List<AttributeValue> events = List.of(
        AttributeValue.fromM(Map.of("t", AttributeValue.fromS("2026-11-23T08:00:00Z"), "x", AttributeValue.fromS("\u00fc"))),
        AttributeValue.fromS("item-added"), AttributeValue.fromN("12"));
    assertEquals(ItemSize.of(Map.of("e", AttributeValue.fromL(events))), ItemSize.ofList("e", events));
    assertEquals(ItemSize.of(Map.of("\u00e9", AttributeValue.fromL(List.of()))), ItemSize.ofList("\u00e9", List.of()));
  }
}
