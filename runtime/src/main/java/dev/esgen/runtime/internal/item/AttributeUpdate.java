package dev.esgen.runtime.internal.item;

import java.util.ArrayList;
import java.util.Collections;
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

  /** Placeholders of the first attributes, made once: an append names a handful. */
  private static final int CACHED_PLACEHOLDERS = 16;
  private static final String[] NAMES = new String[CACHED_PLACEHOLDERS];
  private static final String[] VALUES = new String[CACHED_PLACEHOLDERS];

  static {
    for (int n = 0; n < CACHED_PLACEHOLDERS; n++) {
      NAMES[n] = "#a" + n;
      VALUES[n] = ":a" + n;
    }
  }

  private final Map<String, AttributeValue> set = new LinkedHashMap<>();
  private final List<String> remove = new ArrayList<>();
  /**
   * The sizes of what {@link #set} holds, measured when first asked for and forgotten on every change: a
   * layout asks for the size after an update several times while deciding what it writes.
   */
  private Map<String, Long> setSizes;

  public void set(String attribute, AttributeValue value) {
    set.put(attribute, value);
    setSizes = null;
  }

  public void remove(String attribute) {
    remove.add(attribute);
  }

  /** Takes back an attribute set earlier. */
  public void unset(String attribute) {
    set.remove(attribute);
    setSizes = null;
  }

  /** The attributes set so far, in the order they were set (read-only: their sizes are kept). */
  public Map<String, AttributeValue> values() {
    return Collections.unmodifiableMap(set);
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
    Map<String, Long> after = new HashMap<>(2 * (before.size() + set.size()));
    after.putAll(before);
    for (String attribute : remove) {
      after.remove(attribute);
    }
    after.putAll(setSizes());
    return after;
  }

  /** The size of the item {@link #sizesAfter} describes, added up without building it. */
  public long sizeAfter(Map<String, Long> before) {
    Map<String, Long> sizes = setSizes();
    long size = 0;
    for (Map.Entry<String, Long> attribute : before.entrySet()) {
      if (!sizes.containsKey(attribute.getKey()) && !remove.contains(attribute.getKey())) {
        size += attribute.getValue();
      }
    }
    return size + ItemSize.total(sizes);
  }

  /**
   * The size of what this update sets, names included: what DynamoDB counts toward a transaction's bytes
   * for an update (with its key), which leaves the attributes it does not name out.
   */
  public long setSize() {
    return ItemSize.total(setSizes());
  }

  private Map<String, Long> setSizes() {
    if (setSizes == null) {
      setSizes = ItemSize.ofEach(set);
    }
    return setSizes;
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
    // Sized for every entry up front: the SDK copies both maps again, so growing them is pure waste.
    Map<String, String> names = new HashMap<>(2 * (conditionNames.size() + set.size() + remove.size()));
    names.putAll(conditionNames);
    Map<String, AttributeValue> values = new HashMap<>(2 * (conditionValues.size() + set.size()));
    values.putAll(conditionValues);
    StringBuilder expression = new StringBuilder(16 + 11 * (set.size() + remove.size()));
    int n = 0;
    for (Map.Entry<String, AttributeValue> entry : set.entrySet()) {
      String name = name(n);
      String value = value(n);
      names.put(name, entry.getKey());
      values.put(value, entry.getValue());
      expression.append(n == 0 ? "SET " : ", ").append(name).append(" = ").append(value);
      n++;
    }
    int firstRemoval = n;
    for (String attribute : remove) {
      String name = name(n);
      names.put(name, attribute);
      if (n == firstRemoval) {
        expression.append(n == 0 ? "REMOVE " : " REMOVE ");
      } else {
        expression.append(", ");
      }
      expression.append(name);
      n++;
    }
    Update.Builder update = Update.builder()
        .tableName(table)
        .key(key)
        .updateExpression(expression.toString())
        .conditionExpression(condition)
        .expressionAttributeNames(names)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    // DynamoDB refuses an empty map of expression values.
    return (values.isEmpty() ? update : update.expressionAttributeValues(values)).build();
  }

  private static String name(int n) {
    return n < CACHED_PLACEHOLDERS ? NAMES[n] : "#a" + n;
  }

  private static String value(int n) {
    return n < CACHED_PLACEHOLDERS ? VALUES[n] : ":a" + n;
  }
}
