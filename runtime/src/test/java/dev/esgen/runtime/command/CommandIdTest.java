package dev.esgen.runtime.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.InvalidCommandIdException;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Idempotent commands on both layouts: a command id is applied once, however often it is repeated. */
class CommandIdTest {

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aRepeatedCommandReturnsTheStoredStreamWithoutDecidingAgain(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    AtomicInteger decided = new AtomicInteger();

    Versioned<Counter> first = counters.transact(id, "deposit-1", c -> {
      decided.incrementAndGet();
      return c.increment("once");
    });
    // A new store and repository, as after a restart of the process.
    Versioned<Counter> repeat = layout.repository().transact(id, "deposit-1", c -> {
      decided.incrementAndGet();
      return c.increment("twice");
    });

    assertEquals(1, decided.get());
    assertEquals(first, repeat);
    assertEquals(new Versioned<>(new Counter(id, "c", 1, 0, ""), 2, 2), counters.loadVersioned(id));
    Map<String, AttributeValue> record = commandRecord(id, "deposit-1");
    assertEquals("2", record.get(CommandRecords.VERSION).n());
    assertEquals("2", record.get(CommandRecords.SEQ_NR).n());
    assertEquals(id.value(), record.get(IndexKeys.AID).s());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aCommandIdBelongsToOneStream(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId one = CounterId.random();
    CounterId other = CounterId.random();
    counters.create(new CounterCreated(one, "one"));
    counters.create(new CounterCreated(other, "other"));

    counters.transact(one, "shared", c -> c.increment("a"));
    counters.transact(other, "shared", c -> c.increment("b"));

    assertEquals(1, counters.load(one).value());
    assertEquals(1, counters.load(other).value());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aRepeatedAppendIsNotAppliedAgainWhateverVersionItExpects(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));

    counters.append(id, 1, "cmd", List.of(new Incremented(5, "x")));
    Versioned<Counter> repeat = counters.append(id, 1, "cmd", List.of(new Incremented(5, "x")));

    assertEquals(2, repeat.version());
    assertEquals(5, counters.load(id).value());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aRepeatedCreateReturnsTheStreamAndAnotherCommandFindsItTaken(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();

    Versioned<Counter> created = counters.create("open", List.of(new CounterCreated(id, "c")));
    counters.transact(id, c -> c.increment("later"));
    Versioned<Counter> repeat = counters.create("open", List.of(new CounterCreated(id, "c")));

    assertEquals(1, created.version());
    assertEquals(2, repeat.version(), "a repeat answers with the stream as stored now");
    assertThrows(AggregateAlreadyExistsException.class,
        () -> counters.create("open-again", List.of(new CounterCreated(id, "c"))));
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void twoConcurrentTriesOfOneCommandStoreItOnce(CounterLayout layout) throws Exception {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    // Both tries decide on version 1 before either writes: the command record lets only one through, and
    // the other answers with the stored stream instead of appending after it.
    CountDownLatch bothDecided = new CountDownLatch(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<Versioned<Counter>>> tries = new ArrayList<>();
      for (int k = 0; k < 2; k++) {
        tries.add(threads.submit(() -> counters.transact(id, "once", c -> {
          bothDecided.countDown();
          await(bothDecided);
          return c.increment("t");
        })));
      }
      for (Future<Versioned<Counter>> done : tries) {
        assertEquals(2, done.get(30, TimeUnit.SECONDS).version());
      }
    } finally {
      threads.shutdownNow();
    }
    assertEquals(new Versioned<>(new Counter(id, "c", 1, 0, ""), 2, 2), counters.loadVersioned(id));
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aCommandIdThatCannotBeStoredIsRefusedBeforeAnyRequest(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    TestDynamo.requests().reset();

    InvalidCommandIdException empty =
        assertThrows(InvalidCommandIdException.class, () -> counters.transact(id, "", c -> c.increment("x")));
    InvalidCommandIdException tooLong = assertThrows(InvalidCommandIdException.class,
        () -> counters.transact(id, "é".repeat(65), c -> c.increment("x")));
    assertThrows(InvalidCommandIdException.class,
        () -> counters.append(id, 1, (String) null, List.<CounterEvent>of(new Incremented(1))));
    // Java's UTF-8 encoder writes '?' for a lone half of a surrogate pair: "pay-?" would be the same record.
    InvalidCommandIdException unpaired = assertThrows(InvalidCommandIdException.class,
        () -> counters.transact(id, "pay-" + (char) 0xDBFF, c -> c.increment("x")));
    assertTrue(unpaired.getMessage().contains("char 4 is half of a surrogate pair"), unpaired.getMessage());
    NullPointerException noId = assertThrows(NullPointerException.class, () -> AppendOptions.command(null));
    assertTrue(noId.getMessage().startsWith("commandId is null"), noId.getMessage());

    assertTrue(empty.getMessage().startsWith("counter: "), empty.getMessage());
    assertTrue(tooLong.getMessage().contains("at most 128 bytes") && tooLong.getMessage().contains("has 130"),
        tooLong.getMessage());
    assertEquals(0, TestDynamo.requests().total());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aCommandCostsOneReadMoreThanTransactWithoutIt(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    // From here on every load reads the same way (the journal's snapshot is behind by then).
    counters.transact(id, c -> c.increment("warm-up"));
    TestDynamo.requests().reset();

    counters.transact(id, c -> c.increment("plain"));
    int plain = TestDynamo.requests().total();
    TestDynamo.requests().reset();
    counters.transact(id, "cmd", c -> c.increment("command"));
    int withCommand = TestDynamo.requests().total();
    TestDynamo.requests().reset();
    counters.transact(id, "cmd", c -> c.increment("command"));
    int repeat = TestDynamo.requests().total();
    int repeatWrites = TestDynamo.requests().of("TransactWriteItems") + TestDynamo.requests().of("UpdateItem");

    assertEquals(plain + 1, withCommand, "the command record's read; it is written in the same request");
    assertEquals(plain, repeat, "a repeat reads the record and the stream");
    assertEquals(0, repeatWrites, "a repeat writes nothing");
  }

  private static Map<String, AttributeValue> commandRecord(CounterId id, String commandId) {
    return TestDynamo.client().getItem(b -> b
        .tableName("snapshot")
        .key(Map.of(
            IndexKeys.PKEY, AttributeValue.fromS(CounterRepository.NAME + "#" + id.value()),
            IndexKeys.SKEY, AttributeValue.fromS(CommandRecords.SORT_KEY_PREFIX + commandId)))
        .consistentRead(true)).item();
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the other try never decided");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
