package dev.esgen.testkit.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.internal.item.ItemSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The in-memory store's sums agree with the runtime's own measure of built items, value by value. */
class ItemSizesTest {

  @Test
  void stringsAreTheirUtf8LengthAsTheEncoderWritesThem() {
    for (String text : List.of("", "plain", "\u00e9t\u00e9", "\u20ac", "\uD83D\uDE00 and \uD83C\uDF89", "\uD800 alone",
        "end \uDBFF")) {
      assertEquals(ItemSize.of(Map.of("", AttributeValue.fromS(text))), ItemSizes.utf8(text), text);
    }
  }

  @Test
  void numbersCountTheirSignificantDigits() {
    SplittableRandom random = new SplittableRandom(42);
    List<Long> values = new ArrayList<>(List.of(0L, 1L, 9L, 10L, 100L, 101L, 1_000_000L, 123_456_789L,
        Long.MAX_VALUE));
    for (int i = 0; i < 1_000; i++) {
      values.add(random.nextLong(0, Long.MAX_VALUE) / (long) Math.pow(10, random.nextInt(0, 18)));
    }
    for (long value : values) {
      assertEquals(ItemSize.of(Map.of("", AttributeValue.fromN(Long.toString(value)))), ItemSizes.number(value),
          Long.toString(value));
    }
  }

  @Test
  void containersAddThreeAndOnePerElement() {
    List<AttributeValue> elements = List.of(AttributeValue.fromS("ab"), AttributeValue.fromN("12345"),
        AttributeValue.fromB(SdkBytes.fromByteArray(new byte[7])));
    long elementBytes = ItemSizes.utf8("ab") + ItemSizes.number(12345) + 7;

    assertEquals(ItemSize.of(Map.of("l", AttributeValue.fromL(elements))),
        ItemSizes.attribute("l", ItemSizes.container(3, elementBytes)));
    Map<String, AttributeValue> map = Map.of("k", AttributeValue.fromS("v"), "n", AttributeValue.fromN("7"));
    assertEquals(ItemSize.of(Map.of("m", AttributeValue.fromM(map))),
        ItemSizes.attribute("m", ItemSizes.container(2, ItemSizes.attribute("k", 1) + ItemSizes.attribute("n", 2))));
    assertEquals(ItemSize.of(Map.of("", AttributeValue.fromM(map))), ItemSizes.map(AttributeValue.fromM(map)));
  }
}
