package dev.esgen.runtime.internal.item;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The attributes an {@code UpdateItem} sets and removes, turned into an update expression whose names
 * and values are all placeholders ({@code #a0 = :a0}), so no attribute name or value is ever spliced into
 * the expression. The journal's head-row update and a reindex write build their updates with it.
 *
 * <pre>{@code
 * AttributeUpdate head = new AttributeUpdate();
 * head.set("version", AttributeValue.fromN("8"));
 * head.remove("ix0_pk");
 * Update update = head.toUpdate("snapshot", key, "#v = :v", Map.of("#v", "version"), Map.of(":v", seven));
 * }</pre>
 */
public final class AttributeUpdate {

  private final Map<String, AttributeValue> set = new LinkedHashMap<>();
  private final List<String> remove = new ArrayList<>();

  public void set(String attribute, AttributeValue value) {
    set.put(attribute, value);
  }

  public void remove(String attribute) {
    remove.add(attribute);
  }

  /** Takes back an attribute set earlier. */
  public void unset(String attribute) {
    set.remove(attribute);
  }

  /** The attributes set so far, in the order they were set. */
  public Map<String, AttributeValue> values() {
    return set;
  }

  /** A copy that can be added to without changing this update. */
  public AttributeUpdate copy() {
    AttributeUpdate copy = new AttributeUpdate();
    copy.set.putAll(set);
    copy.remove.addAll(remove);
    return copy;
  }

  /**
   * The size of each attribute of an item after this update, given the size of each attribute it holds
   * before ({@link ItemSize#ofEach}): as DynamoDB applies an update, what it sets replaces, what it removes
   * goes, and every attribute it does not name stays.
   */
  public Map<String, Long> sizesAfter(Map<String, Long> before) {
    Map<String, Long> after = new HashMap<>(before);
    remove.forEach(after::remove);
    after.putAll(ItemSize.ofEach(set));
    return after;
  }

  /** The size of the item {@link #sizesAfter} describes. */
  public long sizeAfter(Map<String, Long> before) {
    return sizesAfter(before).values().stream().mapToLong(Long::longValue).sum();
  }

  /** Whether the update would neither set nor remove anything. */
  public boolean isEmpty() {
    return set.isEmpty() && remove.isEmpty();
  }

  /**
   * The update of the item {@code key} in {@code table} under {@code condition}, whose placeholders are
   * {@code conditionNames} and {@code conditionValues} (they must not start with {@code #a} / {@code :a});
   * a failed condition returns the item's old image.
   */
  public Update toUpdate(String table, Map<String, AttributeValue> key, String condition,
      Map<String, String> conditionNames, Map<String, AttributeValue> conditionValues) {
    Map<String, String> names = new HashMap<>(conditionNames);
    Map<String, AttributeValue> values = new HashMap<>(conditionValues);
    List<String> assignments = new ArrayList<>();
    int n = 0;
    for (Map.Entry<String, AttributeValue> entry : set.entrySet()) {
      names.put("#a" + n, entry.getKey());
      values.put(":a" + n, entry.getValue());
      assignments.add("#a" + n + " = :a" + n);
      n++;
    }
    List<String> removals = new ArrayList<>();
    for (String attribute : remove) {
      names.put("#a" + n, attribute);
      removals.add("#a" + n);
      n++;
    }
    String expression = (assignments.isEmpty() ? "" : "SET " + String.join(", ", assignments))
        + (assignments.isEmpty() || removals.isEmpty() ? "" : " ")
        + (removals.isEmpty() ? "" : "REMOVE " + String.join(", ", removals));
    Update.Builder update = Update.builder()
        .tableName(table)
        .key(key)
        .updateExpression(expression)
        .conditionExpression(condition)
        .expressionAttributeNames(names)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    // DynamoDB refuses an empty map of expression values.
    return (values.isEmpty() ? update : update.expressionAttributeValues(values)).build();
  }
}
