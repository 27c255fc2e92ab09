package dev.esgen.runtime.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.esgen.runtime.internal.item.AttributeUpdate;
import dev.esgen.runtime.internal.item.ItemSize;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Update;

class AttributeUpdateTest {

  private static final Map<String, AttributeValue> KEY = Map.of("pkey", AttributeValue.fromS("p"));

  @Test
  void setsAndRemovesThroughPlaceholdersBesideTheCondition() {
    AttributeUpdate head = new AttributeUpdate();
    head.set("version", AttributeValue.fromN("8"));
    head.set("last_seq_nr", AttributeValue.fromN("12"));
    head.remove("ix0_pk");
    head.remove("schema");

    Update update = head.toUpdate("snapshot", KEY, "#v = :v", Map.of("#v", "version"),
        Map.of(":v", AttributeValue.fromN("7")));

    assertEquals("SET #a0 = :a0, #a1 = :a1 REMOVE #a2, #a3", update.updateExpression());
    assertEquals(Map.of("#v", "version", "#a0", "version", "#a1", "last_seq_nr", "#a2", "ix0_pk", "#a3", "schema"),
        update.expressionAttributeNames());
    assertEquals(Map.of(":v", AttributeValue.fromN("7"), ":a0", AttributeValue.fromN("8"),
        ":a1", AttributeValue.fromN("12")), update.expressionAttributeValues());
    assertEquals("#v = :v", update.conditionExpression());
  }

  @Test
  void anUpdateThatOnlySetsOrOnlyRemovesHasOneClause() {
    AttributeUpdate sets = new AttributeUpdate();
    sets.set("version", AttributeValue.fromN("1"));
    assertEquals("SET #a0 = :a0",
        sets.toUpdate("t", KEY, "attribute_not_exists(#p)", Map.of("#p", "pkey"), Map.of()).updateExpression());

    AttributeUpdate removes = new AttributeUpdate();
    removes.remove("ix0_pk");
    Update update = removes.toUpdate("t", KEY, "attribute_exists(#p)", Map.of("#p", "pkey"), Map.of());
    assertEquals("REMOVE #a0", update.updateExpression());
    // DynamoDB refuses an empty map of values
    assertFalse(update.hasExpressionAttributeValues());
  }

  @Test
  void theSetSizeCountsWhatTheUpdateSetsAsTheItemSizeRulesDo() {
    AttributeUpdate head = new AttributeUpdate();
    head.set("version", AttributeValue.fromN("8"));
    head.set("payload", AttributeValue.fromS("x".repeat(100)));
    head.remove("ix0_pk");
    long before = head.setSize();
    head.set("payload", AttributeValue.fromS("y"));   // a change forgets the sizes measured before

    assertEquals(ItemSize.of(Map.of("version", AttributeValue.fromN("8"), "payload", AttributeValue.fromS("x".repeat(100)))),
        before);
    assertEquals(ItemSize.of(Map.of("version", AttributeValue.fromN("8"), "payload", AttributeValue.fromS("y"))),
        head.setSize());
  }

  @Test
  void placeholdersGoOnPastTheFirstSixteen() {
    AttributeUpdate wide = new AttributeUpdate();
    for (int i = 0; i < 18; i++) {
      wide.set("attribute" + i, AttributeValue.fromN(Integer.toString(i)));
    }
    Update update = wide.toUpdate("t", KEY, "attribute_exists(#p)", Map.of("#p", "pkey"), Map.of());
    assertEquals("attribute17", update.expressionAttributeNames().get("#a17"));
    assertEquals(AttributeValue.fromN("17"), update.expressionAttributeValues().get(":a17"));
  }

  @Test
  void theSizeAfterIsWhatTheItemHoldsOnceTheUpdateIsApplied() {
    Map<String, AttributeValue> stored = Map.of(
        "pkey", AttributeValue.fromS("cart-1"), "version", AttributeValue.fromN("3"),
        "ix0_pk", AttributeValue.fromS("cart#owner#ann"), "payload", AttributeValue.fromS("x".repeat(100)));
    Map<String, Long> before = ItemSize.ofEach(stored);
    AttributeUpdate head = new AttributeUpdate();
    head.set("version", AttributeValue.fromN("4"));
    head.set("ix0_pk", AttributeValue.fromS("cart#owner#bob"));
    head.remove("payload");

    Map<String, AttributeValue> after = new HashMap<>(stored);
    after.remove("payload");
    after.put("version", AttributeValue.fromN("4"));
    after.put("ix0_pk", AttributeValue.fromS("cart#owner#bob"));
    assertEquals(ItemSize.of(after), head.sizeAfter(before));
    assertEquals(ItemSize.ofEach(after), head.sizesAfter(before));

    // a change after the sizes were measured counts
    head.set("payload", AttributeValue.fromS("y".repeat(10)));
    after.put("payload", AttributeValue.fromS("y".repeat(10)));
    assertEquals(ItemSize.of(after), head.sizeAfter(before));
    head.unset("ix0_pk");
    after.put("ix0_pk", AttributeValue.fromS("cart#owner#ann"));
    assertEquals(ItemSize.of(after), head.sizeAfter(before));
    assertEquals(ItemSize.ofEach(after), head.sizesAfter(before));
  }
}
