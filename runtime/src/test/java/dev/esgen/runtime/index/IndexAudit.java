package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Scans the tables of one aggregate type (the indexed counter under its own name) directly and checks
 * that reservations, index slots and streams agree: every reservation is held by an aggregate whose
 * current state has that value, every aggregate's value is reserved by it, every slot holds the
 * current value, and there are no events of streams that do not exist.
 */
final class IndexAudit {

  private final StoreConfig config;
  private final String name;
  private final LayoutKind layout;
  private final IndexedCounterRepository counters;

  IndexAudit(StoreConfig config, String name, LayoutKind layout, IndexedCounterRepository counters) {
    this.config = config;
    this.name = name;
    this.layout = layout;
    this.counters = counters;
  }

  static List<Map<String, AttributeValue>> scan(String table, String attribute, String prefix) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      ScanResponse page = TestDynamo.client().scan(b -> b.tableName(table).consistentRead(true)
          .filterExpression("begins_with(#k, :p)")
          .expressionAttributeNames(Map.of("#k", attribute))
          .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(prefix)))
          .exclusiveStartKey(from));
      items.addAll(page.items());
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    return items;
  }

  /** The reservation key → holder aid, as stored. */
  Map<String, String> reservations() {
    Map<String, String> stored = new TreeMap<>();
    for (Map<String, AttributeValue> item : scan(config.snapshotTable(), "pkey", name + "#")) {
      if (!IndexKeys.UNIQUE_SORT_KEY.equals(item.get("skey").s())) {
        continue;   // a command record
      }
      stored.put(item.get("pkey").s(), item.get("aid").s());
    }
    return stored;
  }

  /** aid → the item carrying the version and the slots (head row or tip). */
  Map<String, Map<String, AttributeValue>> versionedItems() {
    Map<String, Map<String, AttributeValue>> items = new HashMap<>();
    if (layout == LayoutKind.JOURNAL) {
      for (Map<String, AttributeValue> item : scan(config.snapshotTable(), "pkey", name + "-")) {
        if (item.get("skey").s().endsWith("-00000000000000000000")) {
          items.put(item.get("aid").s(), item);
        }
      }
    } else {
      for (Map<String, AttributeValue> item : scan(config.tipTable(), TipAttributes.STREAM, name + "#")) {
        if (Long.parseLong(item.get(TipAttributes.INDEX).n()) == TipKeys.TIP_INDEX) {
          String stream = item.get(TipAttributes.STREAM).s();
          items.put(stream.substring(name.length() + 1), item);
        }
      }
    }
    return items;
  }

  /** Checks everything; returns the aggregates found, by aid. */
  Map<String, Counter> check() {
    Map<String, Map<String, AttributeValue>> versioned = versionedItems();
    Map<String, Counter> states = new TreeMap<>();
    Map<String, String> expectedReservations = new TreeMap<>();
    for (Map.Entry<String, Map<String, AttributeValue>> entry : versioned.entrySet()) {
      String aid = entry.getKey();
      Optional<Counter> state = counters.findById(new CounterId(aid));
      assertTrue(state.isPresent(), "stream " + aid + " loads");
      Counter counter = state.get();
      states.put(aid, counter);
      Map<String, AttributeValue> item = entry.getValue();
      assertEquals(name + "#name#" + counter.name(), s(item, IndexKeys.slotAttribute(0)), "slot 0 of " + aid);
      assertEquals(name + "#parity#" + (counter.value() % 2 == 0 ? "even" : "odd"), s(item, IndexKeys.slotAttribute(1)),
          "slot 1 of " + aid);
      if (!counter.lastNote().isEmpty()) {
        String key = name + "#note#" + IndexedCounterRepository.NOTE.normalize(counter.lastNote());
        String other = expectedReservations.put(key, aid);
        assertEquals(null, other, "two aggregates hold " + key + ": " + other + " and " + aid);
      }
    }
    assertEquals(expectedReservations, reservations(), "reservations agree with the streams' current values");
    if (layout == LayoutKind.JOURNAL) {
      for (Map<String, AttributeValue> event : scan(config.journalTable(), "pkey", name + "-")) {
        assertTrue(versioned.containsKey(event.get("aid").s()), "event of a stream without head row: " + event);
      }
    }
    return states;
  }

  private static String s(Map<String, AttributeValue> item, String attribute) {
    AttributeValue value = item.get(attribute);
    return value == null ? null : value.s();
  }
}
