package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.RedactedException;
import dev.esgen.runtime.error.SnapshotDecodingException;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.testing.TestDynamo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class FailureTest {

  private final CounterRepository counters = new CounterRepository(TestDynamo.store());

  @Test
  void anUndecodablePayloadNamesAggregateSeqNrAndType() {
    CounterId id = streamWithStoredEvent2("incremented", "{not json");
    EventDecodingException e = assertThrows(EventDecodingException.class, () -> counters.load(id));
    assertEquals("counter", e.aggregateName());
    assertEquals(id.value(), e.aggregateId());
    assertEquals(2, e.seqNr());
    assertEquals("incremented", e.eventType());
    assertEquals(JsonParseException.class.getName(), assertInstanceOf(RedactedException.class, e.getCause())
        .originalClassName());
    assertTrue(e.getMessage().contains("event 2 (type 'incremented') of counter " + id.value()), e.getMessage());
  }

  @Test
  void aWronglyTypedEventFieldIsNamedByItsPathWithoutTheStoredValue() {
    String secret = "4111-1111-1111-1111";
    CounterId id = streamWithStoredEvent2("incremented", "{\"tag\":\"x\",\"by\":\"" + secret + "\"}");
    EventDecodingException e = assertThrows(EventDecodingException.class, () -> counters.load(id));
    assertEquals("cannot decode event 2 (type 'incremented') of counter " + id.value()
        + ": InvalidFormatException at $.by, line 1, column 17", e.getMessage());
    assertEquals(InvalidFormatException.class.getName(), ((RedactedException) e.getCause()).originalClassName());
    assertNothingQuotes(secret, e);
  }

  @Test
  void anUnparsableEventIsNamedByLineAndColumnWithoutTheStoredText() {
    String secret = "ann4111111111111111";
    CounterId id = streamWithStoredEvent2("incremented", "{\"by\":1,\n\"tag\":" + secret + "}");
    EventDecodingException e = assertThrows(EventDecodingException.class, () -> counters.load(id));
    assertTrue(e.getMessage().endsWith(": JsonParseException at line 2, column 27"), e.getMessage());
    assertNothingQuotes(secret, e);
  }

  @Test
  void anUnreadableRecordingTimeIsADecodingErrorWithoutTheStoredText() {
    String secret = "ann@example.com";
    CounterId id = streamWithStoredEvent2("incremented", "{\"by\":1,\"tag\":\"t\"}",
        Map.of("occurred_at", AttributeValue.fromS(secret)));
    EventDecodingException e = assertThrows(EventDecodingException.class, () -> counters.events(id).toList());
    assertEquals("cannot decode event 2 (type 'incremented') of counter " + id.value() + ": DateTimeParseException",
        e.getMessage());
    assertNothingQuotes(secret, e);
  }

  @Test
  void anUnknownEventTypeIsADecodingError() {
    CounterId id = streamWithStoredEvent2("exploded", "{}");
    EventDecodingException e = assertThrows(EventDecodingException.class, () -> counters.findById(id));
    assertEquals("exploded", e.eventType());
    assertEquals(2, e.seqNr());
  }

  @Test
  void missingTablesAreNamedWithHowToCreateThem() {
    CounterRepository lost = new CounterRepository(TestDynamo.store(StoreConfig.defaults()
        .withJournalTable("no-such-journal").withSnapshotTable("no-such-snapshot")));
    CounterId id = CounterId.random();

    MissingTableException onLoad = assertThrows(MissingTableException.class, () -> lost.findById(id));
    assertEquals(List.of("no-such-snapshot"), onLoad.tables());
    assertTrue(onLoad.getMessage().contains("TableProvisioner"), onLoad.getMessage());
    assertTrue(onLoad.getMessage().contains("docs/operations.md"), onLoad.getMessage());

    MissingTableException onCreate =
        assertThrows(MissingTableException.class, () -> lost.create(new CounterCreated(id, "c")));
    assertEquals(List.of("no-such-journal", "no-such-snapshot"), onCreate.tables());
  }

  @Test
  void aGapInTheJournalIsReportedAsCorruption() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, List.of(new Incremented(1), new Incremented(1)));
    JournalKeys keys = new JournalKeys(CounterRepository.NAME, 4);
    TestDynamo.client().deleteItem(b -> b.tableName("journal").key(Map.of(
        "pkey", AttributeValue.fromS(keys.partitionKey(id.value())),
        "skey", AttributeValue.fromS(keys.sortKey(id.value(), 2)))));
    CorruptStreamException e = assertThrows(CorruptStreamException.class, () -> counters.load(id));
    assertTrue(e.getMessage().contains("expected event 2 in the journal, found 3"), e.getMessage());
  }

  @Test
  void anUndecodableSnapshotNamesWhereItWasTaken() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    JournalKeys keys = new JournalKeys(CounterRepository.NAME, 4);
    TestDynamo.client().updateItem(b -> b.tableName("snapshot")
        .key(Map.of(
            "pkey", AttributeValue.fromS(keys.partitionKey(id.value())),
            "skey", AttributeValue.fromS(keys.headSortKey(id.value()))))
        .updateExpression("SET payload = :p")
        .expressionAttributeValues(Map.of(":p", AttributeValue.fromB(SdkBytes.fromUtf8String("[]")))));
    SnapshotDecodingException e = assertThrows(SnapshotDecodingException.class, () -> counters.load(id));
    assertEquals(1, e.seqNr());
    assertEquals(id.value(), e.aggregateId());
  }

  @Test
  void aWronglyTypedSnapshotFieldIsNamedByItsPathWithoutTheStoredValue() {
    String secret = "ann@example.com";
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    JournalKeys keys = new JournalKeys(CounterRepository.NAME, 4);
    Map<String, AttributeValue> key = Map.of(
        "pkey", AttributeValue.fromS(keys.partitionKey(id.value())),
        "skey", AttributeValue.fromS(keys.headSortKey(id.value())));
    String stored = TestDynamo.client().getItem(b -> b.tableName("snapshot").key(key).consistentRead(true))
        .item().get("payload").b().asUtf8String();
    String payload = stored.replace("\"notes\":0", "\"notes\":[\"" + secret + "\"]");
    assertTrue(payload.contains(secret), stored);
    TestDynamo.client().updateItem(b -> b.tableName("snapshot")
        .key(key)
        .updateExpression("SET payload = :p")
        .expressionAttributeValues(Map.of(":p", AttributeValue.fromB(SdkBytes.fromUtf8String(payload)))));
    SnapshotDecodingException e = assertThrows(SnapshotDecodingException.class, () -> counters.load(id));
    assertTrue(e.getMessage().startsWith("cannot decode snapshot of counter " + id.value() + " taken at seq_nr 1: "
        + "MismatchedInputException at $.notes, line 1, column "), e.getMessage());
    assertNothingQuotes(secret, e);
  }

  /** Neither {@code e} nor any of its causes, nor the stack trace a log would print, holds {@code secret}. */
  private static void assertNothingQuotes(String secret, Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      assertFalse(String.valueOf(t.getMessage()).contains(secret), t.toString());
    }
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    assertFalse(trace.toString().contains(secret), trace.toString());
    assertTrue(trace.toString().contains("Caused by: " + RedactedException.class.getName()), trace.toString());
  }

  /** A stream of two events whose second journal item is then overwritten by hand. */
  private CounterId streamWithStoredEvent2(String type, String payload) {
    return streamWithStoredEvent2(type, payload, Map.of());
  }

  /** As {@link #streamWithStoredEvent2(String, String)}, the item holding {@code more} attributes too. */
  private CounterId streamWithStoredEvent2(String type, String payload, Map<String, AttributeValue> more) {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, new Incremented(1));
    JournalKeys keys = new JournalKeys(CounterRepository.NAME, 4);
    Map<String, AttributeValue> item = new HashMap<>(more);
    item.putAll(Map.of(
        "pkey", AttributeValue.fromS(keys.partitionKey(id.value())),
        "skey", AttributeValue.fromS(keys.sortKey(id.value(), 2)),
        "aid", AttributeValue.fromS(id.value()),
        "seq_nr", AttributeValue.fromN("2"),
        "event_type", AttributeValue.fromS(type),
        "payload", AttributeValue.fromB(SdkBytes.fromUtf8String(payload))));
    TestDynamo.client().putItem(b -> b.tableName("journal").item(item));
    return id;
  }
}
