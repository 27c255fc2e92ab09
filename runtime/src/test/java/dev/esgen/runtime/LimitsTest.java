package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LimitsTest {

  private final CounterRepository counters = new CounterRepository(TestDynamo.store());

  @Test
  void anEventOverTheItemLimitIsRefusedBeforeAnythingIsSent() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    long journalItems = TestDynamo.itemCount("journal");
    long snapshotItems = TestDynamo.itemCount("snapshot");
    TestDynamo.requests().reset();

    ItemTooLargeException e = assertThrows(ItemTooLargeException.class,
        () -> counters.append(id, 1, List.of(new Incremented(1), new Noted("x".repeat(410_000)))));

    assertEquals("event 3", e.item());
    assertEquals(id.value(), e.aggregateId());
    assertTrue(e.sizeBytes() > 410_000 && e.sizeBytes() < 411_000, "size " + e.sizeBytes());
    assertEquals(409_600, e.limitBytes());
    assertTrue(e.getMessage().contains("409,600"), e.getMessage());
    assertEquals(0, TestDynamo.requests().of("TransactWriteItems"));
    assertEquals(journalItems, TestDynamo.itemCount("journal"));
    assertEquals(snapshotItems, TestDynamo.itemCount("snapshot"));
  }

  @Test
  void anEventJustUnderTheItemLimitIsStored() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, new Noted("x".repeat(400_000)));
    assertEquals(1, counters.load(id).notes());
  }

  @Test
  void aTransactionOfMoreThanOneHundredActionsIsRefusedBeforeAnythingIsSent() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, increments(99));           // 99 journal puts + the head row: exactly 100
    long journalItems = TestDynamo.itemCount("journal");
    TestDynamo.requests().reset();

    TransactionTooLargeException e =
        assertThrows(TransactionTooLargeException.class, () -> counters.append(id, 2, increments(100)));

    assertEquals(101, e.actionCount());
    assertEquals(100, e.actionLimit());
    assertTrue(e.getMessage().contains("101 actions"), e.getMessage());
    assertEquals(0, TestDynamo.requests().of("TransactWriteItems"));
    assertEquals(journalItems, TestDynamo.itemCount("journal"));
    assertEquals(99, counters.load(id).value());
  }

  private static List<CounterEvent> increments(int count) {
    List<CounterEvent> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      events.add(new Incremented(1));
    }
    return events;
  }
}
