package dev.esgen.runtime.faults;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Reads what is stored for a counter stream straight from the tables, with a client that injects no
 * faults and bypasses the layouts under test, and checks that it is whole: the events form one gapless
 * sequence that the stream's versioned item (journal head row, tip) counts exactly, and every append
 * starts with its append id.
 */
final class StoredStreams {

  private StoredStreams() {}

  /** One append as stored: the append id on its first event, and its events. */
  record StoredAppend(String appendId, List<CounterEvent> events) {}

  /**
   * A stream as stored.
   *
   * @param appends the appends in stored order
   * @param items how many items hold the events: journal items, or the tip and its batches
   * @param defects what makes the stream not whole: gaps, events the versioned item does not count, a
   *     version that is not the number of appends; empty for a whole stream
   */
  record StoredStream(List<StoredAppend> appends, int items, List<String> defects) {

    List<CounterEvent> events() {
      return appends.stream().flatMap(a -> a.events().stream()).toList();
    }

    /** How many appends hold {@code event}. */
    long count(CounterEvent event) {
      return events().stream().filter(event::equals).count();
    }

    /** The state the stored events fold to; empty for no events. */
    Optional<Counter> fold(AggregateDefinition<Counter, CounterId, CounterEvent> definition) {
      List<CounterEvent> events = events();
      if (events.isEmpty()) {
        return Optional.empty();
      }
      Counter state = definition.replay().create(events.get(0));
      for (CounterEvent event : events.subList(1, events.size())) {
        state = definition.replay().apply(state, event);
      }
      return Optional.of(state);
    }
  }

  static StoredStream read(AggregateDefinition<Counter, CounterId, CounterEvent> definition, String aid) {
    return definition.layout() == LayoutKind.TIP ? readTip(definition, aid) : readJournal(definition, aid);
  }

  private static StoredStream readJournal(AggregateDefinition<Counter, CounterId, CounterEvent> definition, String aid) {
    List<String> defects = new ArrayList<>();
    List<StoredAppend> appends = new ArrayList<>();
    List<Map<String, AttributeValue>> items = TestDynamo.streamItems("journal", definition.name(), aid);
    long expected = 1;
    for (Map<String, AttributeValue> item : items) {
      long seqNr = TestDynamo.seqNr(item);
      if (seqNr != expected) {
        defects.add("journal: expected event " + expected + ", found " + seqNr);
        expected = seqNr;
      }
      expected++;
      CounterEvent event = decode(definition, item.get(JournalAttributes.EVENT_TYPE).s(),
          item.get(JournalAttributes.PAYLOAD).b().asByteArray());
      AttributeValue appendId = item.get(JournalAttributes.APPEND_ID);
      if (appendId != null) {
        appends.add(new StoredAppend(appendId.s(), new ArrayList<>()));
      } else if (appends.isEmpty()) {
        defects.add("journal: event " + seqNr + " starts the stream without an append id");
        appends.add(new StoredAppend("", new ArrayList<>()));
      }
      appends.get(appends.size() - 1).events().add(event);
    }
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    GetItemResponse head = TestDynamo.client().getItem(b -> b.tableName("snapshot").consistentRead(true).key(Map.of(
        JournalAttributes.PKEY, AttributeValue.fromS(keys.partitionKey(aid)),
        JournalAttributes.SKEY, AttributeValue.fromS(keys.headSortKey(aid)))));
    if (!head.hasItem() || head.item().isEmpty()) {
      if (!items.isEmpty()) {
        defects.add("journal: " + items.size() + " events but no head row counts them");
      }
    } else {
      long lastSeqNr = Long.parseLong(head.item().get(JournalAttributes.LAST_SEQ_NR).n());
      long version = Long.parseLong(head.item().get(JournalAttributes.VERSION).n());
      if (lastSeqNr != items.size()) {
        defects.add("journal: the head row counts " + lastSeqNr + " events, " + items.size() + " are stored");
      }
      if (version != appends.size()) {
        defects.add("journal: the head row is at version " + version + ", " + appends.size() + " appends are stored");
      }
    }
    return new StoredStream(freeze(appends), items.size(), List.copyOf(defects));
  }

  private static StoredStream readTip(AggregateDefinition<Counter, CounterId, CounterEvent> definition, String aid) {
    List<String> defects = new ArrayList<>();
    List<StoredAppend> appends = new ArrayList<>();
    String stream = new TipKeys(definition.name()).streamName(aid);
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page = TestDynamo.client().query(b -> b
          .tableName("streams")
          .keyConditionExpression("#p = :p")
          .expressionAttributeNames(Map.of("#p", TipAttributes.STREAM))
          .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream)))
          .consistentRead(true)
          .exclusiveStartKey(from));
      items.addAll(page.items());
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    long expected = 0;
    Map<String, AttributeValue> tip = null;
    for (Map<String, AttributeValue> item : items) {
      long index = Long.parseLong(item.get(TipAttributes.INDEX).n());
      long next = Long.parseLong(item.get(TipAttributes.NEXT).n());
      List<AttributeValue> events = item.get(TipAttributes.EVENTS).l();
      List<AttributeValue> cases = item.get(TipAttributes.CASES).l();
      long first = index == TipKeys.TIP_INDEX ? next - events.size() : index;
      String what = index == TipKeys.TIP_INDEX ? "the tip" : "the batch at " + index;
      if (index == TipKeys.TIP_INDEX) {
        tip = item;
      } else if (next - index != events.size()) {
        defects.add("tip: " + what + " ends at " + next + " but holds " + events.size() + " events");
      }
      if (first != expected) {
        defects.add("tip: " + what + " starts at event " + first + ", expected " + expected);
      }
      if (cases.size() != events.size()) {
        defects.add("tip: " + what + " has " + events.size() + " events but " + cases.size() + " type names");
      }
      for (int k = 0; k < events.size(); k++) {
        Map<String, AttributeValue> stored = events.get(k).m();
        CounterEvent event = decode(definition, cases.get(k).s(), stored.get(TipAttributes.DATA).b().asByteArray());
        AttributeValue appendId = stored.get(TipAttributes.APPEND_ID);
        if (appendId != null) {
          appends.add(new StoredAppend(appendId.s(), new ArrayList<>()));
        } else if (appends.isEmpty()) {
          defects.add("tip: event " + (first + k) + " starts the stream without an append id");
          appends.add(new StoredAppend("", new ArrayList<>()));
        }
        appends.get(appends.size() - 1).events().add(event);
      }
      expected = first + events.size();
    }
    if (tip == null) {
      if (!items.isEmpty()) {
        defects.add("tip: " + items.size() + " batches but no tip counts them");
      }
    } else {
      long version = Long.parseLong(tip.get(TipAttributes.VERSION).n());
      if (version != appends.size()) {
        defects.add("tip: the tip is at version " + version + ", " + appends.size() + " appends are stored");
      }
      long appended = Long.parseLong(tip.get(TipAttributes.APPENDED).n());
      if (!appends.isEmpty() && appended != appends.get(appends.size() - 1).events().size()) {
        defects.add("tip: the tip says the last append added " + appended + " events, it holds "
            + appends.get(appends.size() - 1).events().size());
      }
    }
    return new StoredStream(freeze(appends), items.size(), List.copyOf(defects));
  }

  /** The command record of {@code commandId} on stream {@code aid}, read raw. */
  static Optional<Map<String, AttributeValue>> commandRecord(String aggregateName, String aid, String commandId) {
    GetItemResponse response = TestDynamo.client().getItem(b -> b.tableName("snapshot").consistentRead(true).key(Map.of(
        IndexKeys.PKEY, AttributeValue.fromS(aggregateName + IndexKeys.SEPARATOR + aid),
        IndexKeys.SKEY, AttributeValue.fromS(CommandRecords.SORT_KEY_PREFIX + commandId))));
    return response.hasItem() && !response.item().isEmpty() ? Optional.of(response.item()) : Optional.empty();
  }

  /** The holder (aid) of every reservation of {@code column} whose value starts with {@code prefix}, by value key. */
  static Map<String, String> reservations(String aggregateName, IndexColumn column, String prefix) {
    String keyPrefix = IndexKeys.valueKey(aggregateName, column.name(), column.normalize(prefix));
    Map<String, String> holders = new java.util.TreeMap<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      ScanResponse page = TestDynamo.client().scan(b -> b
          .tableName("snapshot")
          .consistentRead(true)
          .filterExpression("begins_with(#pkey, :prefix) AND #skey = :unique")
          .expressionAttributeNames(Map.of("#pkey", IndexKeys.PKEY, "#skey", IndexKeys.SKEY))
          .expressionAttributeValues(Map.of(
              ":prefix", AttributeValue.fromS(keyPrefix),
              ":unique", AttributeValue.fromS(IndexKeys.UNIQUE_SORT_KEY)))
          .exclusiveStartKey(from));
      page.items().forEach(item -> holders.put(item.get(IndexKeys.PKEY).s(), item.get(IndexKeys.AID).s()));
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    return holders;
  }

  private static List<StoredAppend> freeze(List<StoredAppend> appends) {
    return appends.stream().map(a -> new StoredAppend(a.appendId(), List.copyOf(a.events()))).toList();
  }

  private static CounterEvent decode(
      AggregateDefinition<Counter, CounterId, CounterEvent> definition, String type, byte[] body) {
    try {
      return definition.eventCodec().decode(type, body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
