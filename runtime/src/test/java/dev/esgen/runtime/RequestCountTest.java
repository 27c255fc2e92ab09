package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
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
import dev.esgen.runtime.testing.RequestCounter;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequestCountTest {

  private final DynamoDbEventStore store = TestDynamo.store();
  private final RequestCounter requests = TestDynamo.requests();

  @Test
  void anAppendIsOneRequestEvenWithSeveralEventsAndASnapshot() {
    CounterRepository counters = new CounterRepository(store, SnapshotPolicy.every(2).keeping(1));
    CounterId id = CounterId.random();
    requests.reset();
    counters.create(List.of(new CounterCreated(id, "c"), new Incremented(1)));
    assertEquals(Map.of("TransactWriteItems", 1), requests.snapshot());

    StorageLayout layout = TestDynamo.internals(store).layoutFor(counters.definition());
    LoadedStream<Counter> loaded = layout.load(counters.definition(), id).orElseThrow();
    requests.reset();
    List<CounterEvent> events = List.of(new Incremented(1), new Incremented(1), new Incremented(1));
    Counter next = loaded.state();
    for (CounterEvent e : events) {
      next = counters.definition().replay().apply(next, e);
    }
    layout.append(new AppendRequest<>(counters.definition(), id, Optional.of(loaded), events, next));
    assertEquals(Map.of("TransactWriteItems", 1), requests.snapshot());
  }

  @Test
  void aRepositoryAppendToALoadedStreamIsOneRequestAndStillDetectsConflicts() {
    CounterRepository counters = new CounterRepository(store, SnapshotPolicy.every(2).keeping(1));
    CounterId id = CounterId.random();
    Versioned<Counter> created = counters.create(new CounterCreated(id, "c"));
    requests.reset();
    Versioned<Counter> once = counters.append(created, List.of(new Incremented(1), new Incremented(2)));
    Versioned<Counter> twice = counters.append(once, List.of(new Incremented(3)));
    assertEquals(Map.of("TransactWriteItems", 2), requests.snapshot());
    assertEquals(new Versioned<>(new Counter(id, "c", 6, 0, ""), 3, 4), twice);
    assertEquals(twice, counters.loadVersioned(id));

    requests.reset();
    assertThrows(VersionConflictException.class, () -> counters.append(once, List.of(new Incremented(9))));
    assertEquals(Map.of("TransactWriteItems", 1), requests.snapshot(), "refused by DynamoDB, not by a load");
    assertEquals(6, counters.load(id).value());
  }

  @Test
  void onTheTipLayoutAnAppendToALoadedStreamIsOneUpdateItem() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    Versioned<Counter> created = counters.create(new CounterCreated(id, "c"));
    requests.reset();
    Versioned<Counter> next = counters.append(created, List.of(new Incremented(4)));
    assertEquals(Map.of("UpdateItem", 1), requests.snapshot());
    assertEquals(next, counters.loadVersioned(id));
  }

  @Test
  void anAppendToAHandMadeVersionedLoadsFirst() {
    CounterRepository counters = new CounterRepository(store);
    CounterId id = CounterId.random();
    Versioned<Counter> created = counters.create(new CounterCreated(id, "c"));
    requests.reset();
    counters.append(new Versioned<>(created.state(), created.version(), created.seqNr()), List.of(new Incremented(1)));
    assertEquals(Map.of("GetItem", 1, "TransactWriteItems", 1), requests.snapshot());
  }

  @Test
  void aLoadIsTwoRequestsWithEventsAfterTheSnapshotAndOneWithoutThem() {
    CounterRepository rarely = new CounterRepository(store, SnapshotPolicy.every(100));
    CounterId id = CounterId.random();
    rarely.create(new CounterCreated(id, "c"));
    rarely.append(id, 1, new Incremented(1));
    requests.reset();
    assertEquals(1, rarely.load(id).value());
    assertEquals(Map.of("GetItem", 1, "Query", 1), requests.snapshot());

    CounterRepository always = new CounterRepository(store, SnapshotPolicy.every(1));
    CounterId other = CounterId.random();
    always.create(new CounterCreated(other, "c"));
    always.append(other, 1, new Incremented(1));
    requests.reset();
    assertEquals(1, always.load(other).value());
    assertEquals(Map.of("GetItem", 1), requests.snapshot());
  }

  @Test
  void aMissingAggregateIsOneRequest() {
    requests.reset();
    new CounterRepository(store).findById(CounterId.random());
    assertEquals(Map.of("GetItem", 1), requests.snapshot());
  }
}
