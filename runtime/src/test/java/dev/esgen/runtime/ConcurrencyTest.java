package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class ConcurrencyTest {

  private final DynamoDbEventStore store = TestDynamo.store();
  private final CounterRepository counters = new CounterRepository(store);

  @Test
  void ofTwoWritersAtTheSameVersionExactlyOneWinsAndNothingIsOverwritten() {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    StorageLayout layout = TestDynamo.internals(store).layoutFor(counters.definition());
    LoadedStream<Counter> seenByA = layout.load(counters.definition(), id).orElseThrow();
    LoadedStream<Counter> seenByB = layout.load(counters.definition(), id).orElseThrow();

    layout.append(request(id, seenByA, new Incremented(1, "a")));
    List<Map<String, AttributeValue>> afterA = TestDynamo.streamItems("journal", "counter", id.value());

    VersionConflictException e = assertThrows(VersionConflictException.class,
        () -> layout.append(request(id, seenByB, new Incremented(10, "b"))));
    assertEquals("counter", e.aggregateName());
    assertEquals(id.value(), e.aggregateId());
    assertEquals(1, e.expectedVersion());
    assertEquals(OptionalLong.of(2), e.actualVersion());
    assertTrue(e.getMessage().contains("expected version 1, actual version 2"), e.getMessage());

    assertEquals(afterA, TestDynamo.streamItems("journal", "counter", id.value()));
    assertEquals(1, counters.load(id).value());
  }

  @Test
  void ofTwoRacingRepositoryAppendsExactlyOneWins() throws Exception {
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<Versioned<Counter>>> results = new ArrayList<>();
      for (String writer : List.of("a", "b")) {
        results.add(pool.submit(() -> {
          start.await();
          return counters.append(id, 1, new Incremented(1, writer));
        }));
      }
      int won = 0;
      int lost = 0;
      for (Future<Versioned<Counter>> result : results) {
        try {
          assertEquals(2, result.get(30, TimeUnit.SECONDS).version());
          won++;
        } catch (java.util.concurrent.ExecutionException failed) {
          VersionConflictException e = (VersionConflictException) failed.getCause();
          assertEquals(1, e.expectedVersion());
          lost++;
        }
      }
      assertEquals(1, won);
      assertEquals(1, lost);
    } finally {
      pool.shutdownNow();
    }
    assertEquals(List.of(1L, 2L),
        TestDynamo.streamItems("journal", "counter", id.value()).stream().map(TestDynamo::seqNr).toList());
    assertEquals(1, counters.load(id).value());
  }

  @Test
  void transactFromFourThreadsAppliesEveryIncrementExactlyOnce() throws Exception {
    int threads = 4;
    int commandsPerThread = 25;
    CounterRepository contended =
        new CounterRepository(TestDynamo.store(StoreConfig.defaults().withRetryPolicy(Contention.PATIENT)));
    CounterId id = CounterId.random();
    contended.create(new CounterCreated(id, "hot"));
    TestDynamo.requests().reset();
    Contention.run(threads, commandsPerThread,
        (thread, i) -> contended.transact(id, counter -> counter.increment(thread + "-" + i)));
    int total = threads * commandsPerThread;
    // Each conflict costs one more write: with four threads most commands lose at least once.
    assertTrue(TestDynamo.requests().of("TransactWriteItems") >= total, TestDynamo.requests().snapshot().toString());
    Versioned<Counter> end = contended.findVersioned(id).orElseThrow();
    assertEquals(total, end.state().value());
    assertEquals(total + 1, end.seqNr());
    assertEquals(total + 1, end.version());

    List<Map<String, AttributeValue>> journal = TestDynamo.streamItems("journal", "counter", id.value());
    assertEquals(LongStream.rangeClosed(1, total + 1).boxed().toList(),
        journal.stream().map(TestDynamo::seqNr).toList());
    List<String> tags = journal.stream().skip(1)
        .map(item -> decode(item).tag())
        .toList();
    Set<String> expected = new HashSet<>(Contention.tags(threads, commandsPerThread));
    assertEquals(total, tags.size());
    assertEquals(expected, tags.stream().collect(Collectors.toSet()));
  }

  @Test
  void transactGivesUpAfterTheConfiguredAttemptsNamingThem() {
    CounterId id = CounterId.random();
    CounterRepository impatient = new CounterRepository(TestDynamo.store(StoreConfig.defaults()
        .withRetryPolicy(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5)))));
    impatient.create(new CounterCreated(id, "c"));
    // Every decision is overtaken by a competing write made from inside it.
    VersionConflictException e = assertThrows(VersionConflictException.class,
        () -> impatient.transact(id, counter -> {
          counters.append(id, counters.findVersioned(id).orElseThrow().version(), new Incremented(100, "rival"));
          return counter.increment("mine");
        }));
    assertEquals(3, e.attempts());
    assertTrue(e.getMessage().contains("after 3 attempts"), e.getMessage());
    assertEquals(300, counters.load(id).value());
  }

  private Incremented decode(Map<String, AttributeValue> item) {
    try {
      return (Incremented) counters.definition().eventCodec()
          .decode(item.get("event_type").s(), item.get("payload").b().asByteArray());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private AppendRequest<Counter, CounterId, CounterEvent> request(
      CounterId id, LoadedStream<Counter> base, CounterEvent event) {
    Counter next = counters.definition().replay().apply(base.state(), event);
    return new AppendRequest<>(counters.definition(), id, Optional.of(base), List.of(event), next);
  }
}
