package dev.esgen.runtime.tip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.Replay;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.RequestCounter;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.runtime.testing.TipItems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class TipLayoutTest {

  private final DynamoDbEventStore store = TestDynamo.store();
  private final RequestCounter requests = TestDynamo.requests();

  @Test
  void createIsOnePutItemAnAppendWithoutCalvingOneUpdateItemAndALoadOneGetItem() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    requests.reset();
    counters.create(List.of(new CounterCreated(id, "c"), new Incremented(1, "a")));
    assertEquals(Map.of("PutItem", 1), requests.snapshot());

    for (int version = 1; version <= 5; version++) {
      requests.reset();
      counters.append(id, version, List.of(new Incremented(1, "x"), new Noted("n" + version)));
      // the repository's append loads (GetItem) and writes (UpdateItem): the write is the one request
      assertEquals(Map.of("GetItem", 1, "UpdateItem", 1), requests.snapshot());
    }
    requests.reset();
    assertEquals(new Counter(id, "c", 6, 5, "n5"), counters.load(id));
    assertEquals(Map.of("GetItem", 1), requests.snapshot());
    assertEquals(0, TipItems.batches(id.value()));
  }

  @Test
  void anAppendThroughTheLayoutIsExactlyOneRequest() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    StorageLayout layout = TestDynamo.internals(store).layoutFor(counters.definition());
    LoadedStream<Counter> loaded = layout.load(counters.definition(), id).orElseThrow();
    requests.reset();
    layout.append(request(counters, id, loaded, new Incremented(1, "a"), new Incremented(2, "b")));
    assertEquals(Map.of("UpdateItem", 1), requests.snapshot());
  }

  @Test
  void calvingKeepsEveryEventInOrderAcrossManyCalves() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 5, true));
    CounterId id = CounterId.random();
    Versioned<Counter> at = counters.create(new CounterCreated(id, "c"));
    int calvingAppends = 0;
    for (int i = 0; i < 60; i++) {
      requests.reset();
      at = counters.append(id, at.version(), new Incremented(1, "t" + i));
      calvingAppends += requests.of("TransactWriteItems");
    }
    List<String> expected = IntStream.range(0, 60).mapToObj(i -> "t" + i).toList();
    List<CounterEvent> stored = TipItems.events(counters, id.value());
    assertEquals(new CounterCreated(id, "c"), stored.get(0));
    assertEquals(expected, stored.stream().skip(1).map(e -> ((Incremented) e).tag()).toList());
    assertEquals(12, TipItems.batches(id.value()));
    assertEquals(12, calvingAppends);

    requests.reset();
    Versioned<Counter> loaded = counters.findVersioned(id).orElseThrow();
    assertEquals(new Versioned<>(new Counter(id, "c", 60, 0, ""), 61, 61), loaded);
    assertEquals(Map.of("GetItem", 1), requests.snapshot());
  }

  @Test
  void anEventsOnlyStreamWithManyCalvesLoadsEveryEventInOrder() {
    List<CounterEvent> replayed = new ArrayList<>();
    AggregateDefinition<Counter, CounterId, CounterEvent> definition =
        CounterRepository.builder(store.objectMapper(), SnapshotPolicy.every(100))
            .replay(watching(replayed))
            .layout(LayoutKind.TIP)
            .tipPolicy(new TipPolicy(600, 0, false))
            .build();
    CounterRepository counters = new CounterRepository(store, definition);
    CounterId id = CounterId.random();
    Versioned<Counter> at = counters.create(new CounterCreated(id, "c"));
    for (int i = 0; i < 40; i++) {
      at = counters.append(id, at.version(), List.of(new Incremented(i, "t" + i), new Noted("note " + i)));
    }
    assertTrue(TipItems.batches(id.value()) >= 10, "batches: " + TipItems.batches(id.value()));
    assertTrue(TipItems.of(id.value()).stream().noneMatch(item -> item.containsKey(TipAttributes.UNFOLD)));

    replayed.clear();
    requests.reset();
    Counter counter = counters.load(id);
    assertEquals(new Counter(id, "c", IntStream.range(0, 40).sum(), 40, "note 39"), counter);
    assertEquals(TipItems.events(counters, id.value()), replayed);
    assertEquals(81, replayed.size());
    assertEquals(1, requests.of("GetItem"));
    assertTrue(requests.of("Query") >= 1, requests.snapshot().toString());
  }

  @Test
  void ofTwoWritersAtTheSameVersionExactlyOneWinsAndNothingIsOverwritten() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    StorageLayout layout = TestDynamo.internals(store).layoutFor(counters.definition());
    LoadedStream<Counter> seenByA = layout.load(counters.definition(), id).orElseThrow();
    LoadedStream<Counter> seenByB = layout.load(counters.definition(), id).orElseThrow();

    layout.append(request(counters, id, seenByA, new Incremented(1, "a")));
    List<Map<String, AttributeValue>> afterA = TipItems.of(id.value());

    VersionConflictException e = assertThrows(VersionConflictException.class,
        () -> layout.append(request(counters, id, seenByB, new Incremented(10, "b"))));
    assertEquals(1, e.expectedVersion());
    assertEquals(OptionalLong.of(2), e.actualVersion());
    assertEquals(afterA, TipItems.of(id.value()));
    assertEquals(1, counters.load(id).value());
  }

  @Test
  void aMultiEventAppendThatCalvesIsAtomic() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 3, true));
    CounterId id = CounterId.random();
    counters.create(List.of(new CounterCreated(id, "c"), new Incremented(1, "1"), new Incremented(1, "2")));
    StorageLayout layout = TestDynamo.internals(store).layoutFor(counters.definition());
    LoadedStream<Counter> seenByA = layout.load(counters.definition(), id).orElseThrow();
    LoadedStream<Counter> seenByB = layout.load(counters.definition(), id).orElseThrow();

    requests.reset();
    layout.append(request(counters, id, seenByA, new Incremented(1, "a1"), new Incremented(1, "a2")));
    assertEquals(Map.of("TransactWriteItems", 1), requests.snapshot());
    List<Map<String, AttributeValue>> afterA = TipItems.of(id.value());
    assertEquals(2, afterA.size());
    assertEquals(3, afterA.get(0).get(TipAttributes.EVENTS).l().size());
    assertEquals(2, afterA.get(1).get(TipAttributes.EVENTS).l().size());

    // B's append would calve the same three events into the same batch key: the tip's version condition
    // fails, and neither B's batch nor its tip update is stored.
    assertThrows(VersionConflictException.class, () -> layout.append(
        request(counters, id, seenByB, new Incremented(10, "b1"), new Incremented(10, "b2"), new Incremented(10, "b3"))));
    assertEquals(afterA, TipItems.of(id.value()));
    assertEquals(new Counter(id, "c", 4, 0, ""), counters.load(id));
  }

  @Test
  void anEventTooLargeEvenAfterCalvingIsRefusedBeforeAnythingIsWritten() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    counters.create(List.of(new CounterCreated(id, "c"), new Noted("x".repeat(300_000))));
    // 300 KB in the tip plus 300 KB more would not fit one item, but calving makes room: the new event,
    // past the threshold on its own, goes to a batch item of its own after the tip's.
    Versioned<Counter> calved = counters.append(id, 1, new Noted("y".repeat(300_000)));
    assertEquals(2, TipItems.batches(id.value()));
    assertEquals(List.of(), TipItems.of(id.value()).get(2).get(TipAttributes.EVENTS).l());
    assertEquals(2, calved.state().notes());

    List<Map<String, AttributeValue>> before = TipItems.of(id.value());
    requests.reset();
    ItemTooLargeException e = assertThrows(ItemTooLargeException.class,
        () -> counters.append(id, 2, new Noted("z".repeat(420_000))));
    assertTrue(e.sizeBytes() > ItemTooLargeException.LIMIT_BYTES);
    assertTrue(e.item().startsWith("tip with events 4 to 4"), e.item());
    assertEquals(Map.of("GetItem", 1), requests.snapshot());
    assertEquals(before, TipItems.of(id.value()));
  }

  @Test
  void eventsPastTheThresholdsOnTheirOwnGoStraightToABatchWithTheTipsEvents() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(1024, 0, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.append(id, 1, new Incremented(1, "small"));
    StorageLayout layout = TestDynamo.internals(store).layoutFor(counters.definition());
    LoadedStream<Counter> loaded = layout.load(counters.definition(), id).orElseThrow();

    requests.reset();
    layout.append(request(counters, id, loaded, new Noted("x".repeat(2_000))));

    // One transaction: the batch of the tip's two events and the new one, and a tip of no events. Kept in
    // the tip, the 2 KB event would have been written twice, there and at the next calve.
    assertEquals(Map.of("TransactWriteItems", 1), requests.snapshot());
    List<Map<String, AttributeValue>> items = TipItems.of(id.value());
    assertEquals(2, items.size());
    Map<String, AttributeValue> batch = items.get(0);
    assertEquals("0", batch.get(TipAttributes.INDEX).n());
    assertEquals("3", batch.get(TipAttributes.NEXT).n());
    assertEquals(3, batch.get(TipAttributes.EVENTS).l().size());
    assertTrue(batch.get(TipAttributes.EVENTS).l().get(2).m().containsKey(TipAttributes.APPEND_ID),
        "the new event carries the append id, where a read-back looks for it");
    Map<String, AttributeValue> tip = items.get(1);
    assertEquals(List.of(), tip.get(TipAttributes.EVENTS).l());
    assertEquals("3", tip.get(TipAttributes.NEXT).n());
    assertTrue(tip.containsKey(TipAttributes.UNFOLD), "the snapshot stays in the tip");

    // The tip starts the next append empty: a small event goes in by UpdateItem, nothing calves.
    requests.reset();
    Versioned<Counter> after = counters.append(id, 3, new Incremented(2, "after"));
    assertEquals(Map.of("GetItem", 1, "UpdateItem", 1), requests.snapshot());
    assertEquals(1, TipItems.batches(id.value()));

    requests.reset();
    assertEquals(after.state(), counters.load(id));
    assertEquals(Map.of("GetItem", 1), requests.snapshot());
    assertEquals(new Counter(id, "c", 3, 1, ""), after.state());
    assertEquals(List.of(new CounterCreated(id, "c"), new Incremented(1, "small"), new Noted("x".repeat(2_000)),
        new Incremented(2, "after")), TipItems.events(counters, id.value()));
  }

  @Test
  void creatingAStreamTwiceIsRefused() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    AggregateAlreadyExistsException e = assertThrows(AggregateAlreadyExistsException.class,
        () -> counters.create(new CounterCreated(id, "again")));
    assertEquals(OptionalLong.of(1), e.actualVersion());
  }

  private static Replay<Counter, CounterEvent> watching(List<CounterEvent> seen) {
    Replay<Counter, CounterEvent> replay = CounterRepository.replay();
    return new Replay<>() {
      @Override
      public Counter create(CounterEvent event) {
        seen.add(event);
        return replay.create(event);
      }

      @Override
      public Counter apply(Counter state, CounterEvent event) {
        seen.add(event);
        return replay.apply(state, event);
      }
    };
  }

  private static AppendRequest<Counter, CounterId, CounterEvent> request(
      CounterRepository counters, CounterId id, LoadedStream<Counter> base, CounterEvent... events) {
    Counter next = base.state();
    for (CounterEvent event : events) {
      next = counters.definition().replay().apply(next, event);
    }
    return new AppendRequest<>(counters.definition(), id, Optional.of(base), List.of(events), next);
  }
}
