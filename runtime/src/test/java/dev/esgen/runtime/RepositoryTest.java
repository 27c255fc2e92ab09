package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class RepositoryTest {

  private static final Instant NOW = Instant.parse("2026-03-04T05:06:07.123Z");

  private final CounterRepository counters =
      new CounterRepository(TestDynamo.store(StoreConfig.defaults().withClock(Clock.fixed(NOW, ZoneOffset.UTC))));

  @Test
  void createAppendLoadRoundTrip() {
    CounterId id = CounterId.random();
    Versioned<Counter> created = counters.create(new CounterCreated(id, "visits"));
    assertEquals(new Versioned<>(new Counter(id, "visits", 0, 0, ""), 1, 1), created);

    Versioned<Counter> appended = counters.append(id, 1, List.of(new Incremented(5), new Noted("hi")));
    assertEquals(new Versioned<>(new Counter(id, "visits", 5, 1, "hi"), 2, 3), appended);

    assertEquals(new Counter(id, "visits", 5, 1, "hi"), counters.load(id));
    assertEquals(Optional.of(appended), counters.findVersioned(id));

    List<Map<String, AttributeValue>> journal =
        TestDynamo.streamItems(StoreConfig.defaults().journalTable(), CounterRepository.NAME, id.value());
    assertEquals(List.of(1L, 2L, 3L), journal.stream().map(TestDynamo::seqNr).toList());
    Map<String, AttributeValue> second = journal.get(1);
    assertEquals("incremented", second.get(JournalAttributes.EVENT_TYPE).s());
    assertEquals(NOW.toString(), second.get(JournalAttributes.OCCURRED_AT).s());
    assertEquals(id.value(), second.get(JournalAttributes.AID).s());
    assertEquals(new JournalKeys(CounterRepository.NAME, 4).sortKey(id.value(), 2), second.get(JournalAttributes.SKEY).s());
    assertEquals("counter-" + new JournalKeys(CounterRepository.NAME, 4).shard(id.value()),
        second.get(JournalAttributes.PKEY).s());
    assertTrue(second.get(JournalAttributes.PAYLOAD).b().asUtf8String().contains("\"by\":5"));
  }

  @Test
  void createWithSeveralEventsStoresThemAtomically() {
    CounterId id = CounterId.random();
    Versioned<Counter> created = counters.create(List.of(new CounterCreated(id, "c"), new Incremented(2), new Incremented(3)));
    assertEquals(5, created.state().value());
    assertEquals(1, created.version());
    assertEquals(3, created.seqNr());
    assertEquals(5, counters.load(id).value());
  }

  @Test
  void missingAggregateIsEmptyOrNotFound() {
    CounterId id = CounterId.random();
    assertEquals(Optional.empty(), counters.findById(id));
    AggregateNotFoundException e = assertThrows(AggregateNotFoundException.class, () -> counters.load(id));
    assertEquals("counter", e.aggregateName());
    assertEquals(id.value(), e.aggregateId());
    assertTrue(e.getMessage().contains(id.value()));
    assertThrows(AggregateNotFoundException.class, () -> counters.append(id, 1, new Incremented(1)));
    assertThrows(AggregateNotFoundException.class, () -> counters.transact(id, c -> c.increment("x")));
  }

  @Test
  void secondCreateOfTheSameIdFails() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "first"));
    counters.append(id, 1, new Incremented(1));
    AggregateAlreadyExistsException e =
        assertThrows(AggregateAlreadyExistsException.class, () -> counters.create(new CounterCreated(id, "second")));
    assertEquals(OptionalLong.of(2), e.actualVersion());
    assertEquals(0, e.expectedVersion());
    assertEquals("first", counters.load(id).name());
    assertEquals(2, TestDynamo.streamItems(StoreConfig.defaults().journalTable(), "counter", id.value()).size());
  }

  @Test
  void appendAtAStaleVersionWritesNothing() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, new Incremented(1));
    VersionConflictException e =
        assertThrows(VersionConflictException.class, () -> counters.append(id, 1, new Incremented(100)));
    assertEquals(1, e.expectedVersion());
    assertEquals(OptionalLong.of(2), e.actualVersion());
    assertEquals(1, counters.load(id).value());
  }

  @Test
  void appendBlockedByAJournalItemEsgenDidNotWriteIsACorruptStreamAndStoresNothing() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    JournalKeys keys = new JournalKeys(CounterRepository.NAME, 4);
    // A stray item where the append's second event will go, with no head row that knows of it: the whole
    // transaction must fail, and no reload can fix it, so it is no conflict to retry.
    TestDynamo.client().putItem(b -> b.tableName("journal").item(Map.of(
        "pkey", AttributeValue.fromS(keys.partitionKey(id.value())),
        "skey", AttributeValue.fromS(keys.sortKey(id.value(), 3)),
        "aid", AttributeValue.fromS(id.value()),
        "seq_nr", AttributeValue.fromN("3"),
        "event_type", AttributeValue.fromS("stray"),
        "payload", AttributeValue.fromB(SdkBytes.fromUtf8String("{}")))));

    TestDynamo.requests().reset();
    CorruptStreamException e = assertThrows(CorruptStreamException.class,
        () -> counters.transact(id, c -> List.of(new Incremented(1), new Incremented(2))));

    assertTrue(e.getMessage().contains("event 3 already exists"), e.getMessage());
    assertEquals(1, TestDynamo.requests().of("TransactWriteItems"));

    List<Map<String, AttributeValue>> journal = TestDynamo.streamItems("journal", "counter", id.value());
    assertEquals(List.of(1L, 3L), journal.stream().map(TestDynamo::seqNr).toList());
    assertEquals("stray", journal.get(1).get("event_type").s());
    assertEquals(new Versioned<>(new Counter(id, "c", 0, 0, ""), 1, 1), counters.findVersioned(id).orElseThrow());
  }

  @Test
  void emptyAppendWritesNothing() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    Versioned<Counter> same = counters.append(id, 1, List.of());
    assertEquals(1, same.version());
    Versioned<Counter> decidedNothing = counters.transact(id, c -> List.of());
    assertEquals(1, decidedNothing.version());
    assertEquals(1, TestDynamo.streamItems("journal", "counter", id.value()).size());
  }
}
