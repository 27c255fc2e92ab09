package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.RequestLog;
import dev.esgen.runtime.testing.RequestCounter;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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

  /**
   * The application policies of docs/operations.md, as the actions and resources each layout's table
   * lists: every operation of an aggregate with {@code @Indexed} and {@code @Unique} columns, with command
   * ids, kept and displaced snapshots, calving and reindexing, must send nothing else, or a deployment
   * with those policies fails in production.
   */
  private static final Map<LayoutKind, Set<String>> IAM = Map.of(
      LayoutKind.JOURNAL, Set.of(
          "PutItem journal (tx)", "GetItem journal", "Query journal",
          "GetItem snapshot", "BatchGetItem snapshot", "Query snapshot", "UpdateItem snapshot",
          "UpdateItem snapshot (tx)", "PutItem snapshot (tx)", "DeleteItem snapshot (tx)",
          "ConditionCheckItem snapshot (tx)", "Query snapshot/index/esgen-index-*"),
      LayoutKind.TIP, Set.of(
          "GetItem streams", "BatchGetItem streams", "Query streams", "Query streams/index/esgen-tip-listing",
          "Query streams/index/esgen-index-*", "PutItem streams", "PutItem streams (tx)", "UpdateItem streams",
          "UpdateItem streams (tx)", "ConditionCheckItem streams (tx)",
          "GetItem snapshot", "PutItem snapshot (tx)", "DeleteItem snapshot (tx)"));

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void everyOperationSendsOnlyWhatTheDocumentedPolicyAllowsAndCommandIdsCostOneReadEach(LayoutKind layout) {
    RequestLog log = new RequestLog();
    DynamoDbEventStore logged = DynamoDbEventStore.create(TestDynamo.clientWith(log), StoreConfig.defaults());
    IndexedCounterRepository counters = new IndexedCounterRepository(logged, "iam-" + layout.name().toLowerCase(), layout);
    CounterId id = CounterId.random();
    String name = "iam-" + id.value();
    List<String> all = new java.util.ArrayList<>();
    log.reset();
    Versioned<Counter> created = counters.create(List.of(new CounterCreated(id, name), new Noted("a-" + name)));
    counters.append(created, List.of(new Incremented(1)));
    for (int i = 0; i < 6; i++) {
      counters.transact(id, c -> List.of(new Incremented(2)));
    }
    counters.transact(id, c -> List.of(new Noted("b-" + name)));
    counters.create("create-" + name, List.of(new CounterCreated(CounterId.random(), name)));
    counters.load(id, ReadOptions.eventual());
    counters.findAll(List.of(id, CounterId.random()));
    counters.listAll(PageRequest.first(10));
    counters.listByName(name, PageRequest.first(10));
    counters.findByName(name);
    counters.findByNote("b-" + name);
    counters.events(id).count();
    counters.reindex(id);
    counters.reindexAll();

    // A command id: one strongly consistent GetItem of its record before deciding; a repeat is that read
    // and one load, and writes nothing (docs/reliability.md).
    all.addAll(log.actions());
    Versioned<Counter> before = counters.loadVersioned(id);
    List<String> load = sent(log, () -> counters.load(id));
    List<String> withId = sent(log, () -> counters.transact(id, "command-" + name, c -> List.of(new Incremented(2))));
    assertEquals("GetItem snapshot", withId.get(0), withId.toString());
    assertEquals(load, reads(withId.subList(1, withId.size())), "the record, then the load: " + withId);
    assertTrue(withId.contains("PutItem snapshot (tx)"), "the record is written with the events: " + withId);
    List<String> loadAfter = sent(log, () -> counters.load(id));
    List<String> repeat = sent(log, () -> counters.transact(id, "command-" + name, c -> List.of(new Incremented(2))));
    assertEquals("GetItem snapshot", repeat.get(0), repeat.toString());
    assertEquals(loadAfter, repeat.subList(1, repeat.size()), "the record, then one load, no write");
    assertEquals(before.version() + 1, counters.loadVersioned(id).version());
    all.addAll(withId);
    log.reset();
    if (layout == LayoutKind.JOURNAL) {
      for (SnapshotPolicy policy : List.of(SnapshotPolicy.every(2).keeping(1),
          SnapshotPolicy.every(2).keeping(1).expiringAfter(java.time.Duration.ofDays(1)))) {
        CounterRepository kept = new CounterRepository(logged, policy);
        CounterId k = CounterId.random();
        kept.create(new CounterCreated(k, "k"));
        for (int i = 0; i < 4; i++) {
          kept.transact(k, c -> List.of(new Incremented(1)));
        }
      }
    } else {
      CounterRepository calving = new CounterRepository(logged, new TipPolicy(32 * 1024, 3, false));
      CounterId c = CounterId.random();
      calving.create(new CounterCreated(c, "c"));
      for (int i = 0; i < 7; i++) {
        calving.transact(c, x -> List.of(new Incremented(1)));
      }
      calving.load(c);
      calving.events(c).count();
    }
    all.addAll(log.actions());
    Set<String> unlisted = new TreeSet<>();
    for (String action : all) {
      String resource = action.replace(" (eventual)", "").replaceAll("/index/esgen-index-\\d+", "/index/esgen-index-*");
      if (!IAM.get(layout).contains(resource)) {
        unlisted.add(action);
      }
    }
    assertEquals(Set.of(), unlisted, "sent, but not in the " + layout + " policy of docs/operations.md");
  }

  private static List<String> reads(List<String> actions) {
    return actions.stream().filter(a -> a.startsWith("GetItem") || a.startsWith("Query") || a.startsWith("Batch")).toList();
  }

  private static List<String> sent(RequestLog log, Runnable operation) {
    log.reset();
    operation.run();
    return log.actions();
  }

  @Test
  void aMissingAggregateIsOneRequest() {
    requests.reset();
    new CounterRepository(store).findById(CounterId.random());
    assertEquals(Map.of("GetItem", 1), requests.snapshot());
  }
}
