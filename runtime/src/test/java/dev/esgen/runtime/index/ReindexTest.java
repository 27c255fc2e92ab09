package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.ReindexReport;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.CapacityRecorder;
import dev.esgen.runtime.testing.RequestCounter;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * {@code reindex} and {@code reindexAll} backfill index values on both layouts, against DynamoDB Local.
 * "Stored before the column was indexed" is simulated by removing an aggregate's slot attributes and
 * deleting its reservation with raw requests, which leaves exactly what an append before the column
 * existed left. Every test stores under its own aggregate name, so {@code reindexAll} meets only its
 * streams.
 */
class ReindexTest {

  private static final String SLOT_NAME = IndexKeys.slotAttribute(0);
  private static final String SLOT_PARITY = IndexKeys.slotAttribute(1);

  private final DynamoDbEventStore store = TestDynamo.store();
  private final RequestCounter requests = TestDynamo.requests();

  private IndexedCounterRepository counters(LayoutKind layout) {
    return new IndexedCounterRepository(store, freshAggregateName(), layout);
  }

  private static String freshAggregateName() {
    return "reindex-" + UUID.randomUUID().toString().replace("-", "");
  }

  private static String fresh(String what) {
    return what + "-" + UUID.randomUUID();
  }

  private static Counter create(IndexedCounterRepository counters, String name, CounterEvent... more) {
    List<CounterEvent> events = new ArrayList<>(List.of(new CounterCreated(CounterId.random(), name)));
    events.addAll(List.of(more));
    return counters.create(events).state();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void reindexMakesAnAggregateStoredBeforeItsColumnsFindableAndAddsNoEvent(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String name = fresh("name");
    String note = fresh("Note");
    Counter counter = create(counters, name, new Incremented(1, "odd"));
    counters.transact(counter.id(), c -> List.of(new Noted(note)));
    forget(counters, layout, counter.id(), note);
    Versioned<Counter> before = counters.loadVersioned(counter.id());
    Map<String, AttributeValue> forgotten = versionItem(counters, layout, counter.id());

    assertEquals(Optional.empty(), counters.findByName(name));
    assertEquals(Optional.empty(), counters.findByNote(note));
    assertFalse(listsByParity(counters, "odd", counter.id()));

    Versioned<Counter> reindexed = counters.reindex(counter.id());

    assertEquals(before, reindexed, "the state as it was indexed, at the version it had");
    assertEquals(before, counters.loadVersioned(counter.id()), "no event, no new version");
    assertEquals(counters.load(counter.id()), counters.loadByName(name));
    assertEquals(counters.load(counter.id()), counters.loadByNote(note.toUpperCase()));
    assertTrue(listsByParity(counters, "odd", counter.id()));

    Map<String, AttributeValue> written = versionItem(counters, layout, counter.id());
    Map<String, AttributeValue> expected = new HashMap<>(forgotten);
    expected.put(SLOT_NAME, AttributeValue.fromS(counters.definition().name() + "#name#" + name));
    expected.put(SLOT_PARITY, AttributeValue.fromS(counters.definition().name() + "#parity#odd"));
    if (layout == LayoutKind.TIP) {
      expected.put(TipAttributes.APPENDED, AttributeValue.fromN("0"));
    }
    assertEquals(expected, written, "only the slots (and on the tip the appended count) changed");

    // Idempotent: a second run leaves every item as the first left it.
    counters.reindex(counter.id());
    assertEquals(written, versionItem(counters, layout, counter.id()));
    assertEquals(Optional.of(counter.id().value()), reservationHolder(counters.definition().name(), note));
    assertEquals(before, counters.loadVersioned(counter.id()));

    // And appends go on from the unchanged version as before.
    counters.append(counter.id(), before.version(), new Incremented(1, "even"));
    assertFalse(listsByParity(counters, "odd", counter.id()));
    assertTrue(listsByParity(counters, "even", counter.id()));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void reindexReplacesAStaleSlotValueWithTheCurrentOne(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String name = fresh("name");
    Counter counter = create(counters, name);
    String stale = counters.definition().name() + "#name#" + fresh("stale");
    TestDynamo.client().updateItem(b -> b
        .tableName(table(layout))
        .key(versionKey(counters, layout, counter.id()))
        .updateExpression("SET #s = :s")
        .expressionAttributeNames(Map.of("#s", SLOT_NAME))
        .expressionAttributeValues(Map.of(":s", AttributeValue.fromS(stale))));

    counters.reindex(counter.id());

    assertEquals(counters.definition().name() + "#name#" + name,
        versionItem(counters, layout, counter.id()).get(SLOT_NAME).s());
    assertEquals(counter, counters.loadByName(name));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aValueHeldByAnotherAggregateIsADuplicateAndNothingIsWritten(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String note = fresh("shared");
    String name = fresh("late");
    Counter late = create(counters, name, new Noted(note));
    forget(counters, layout, late.id(), note);
    // With the reservation gone nothing protects the value: another aggregate takes it, in other letter case.
    Counter holder = create(counters, fresh("holder"), new Noted(note.toUpperCase()));
    Map<String, AttributeValue> forgotten = versionItem(counters, layout, late.id());

    DuplicateValueException e = assertThrows(DuplicateValueException.class, () -> counters.reindex(late.id()));

    assertEquals(counters.definition().name(), e.aggregateName());
    assertEquals("note", e.column());
    assertEquals(note, e.value());
    assertEquals(Optional.of(holder.id().value()), e.holderId());
    assertEquals(forgotten, versionItem(counters, layout, late.id()), "not even the slots were written");
    assertEquals(Optional.empty(), counters.findByName(name));
    assertEquals(holder, counters.loadByNote(note));
    assertEquals(1, counters.loadVersioned(late.id()).version());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aReindexOfAStaleStreamFailsAndWritesNothing(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    StorageLayout storage = TestDynamo.internals(store).layoutFor(counters.definition());
    String note = fresh("note");
    Counter withNote = create(counters, fresh("with-note"), new Noted(note));
    Counter without = create(counters, fresh("without-note"));
    for (Counter counter : List.of(withNote, without)) {
      forget(counters, layout, counter.id(), note);
      LoadedStream<Counter> stale = storage.load(counters.definition(), counter.id()).orElseThrow();
      counters.append(counter.id(), 1, new Incremented(2, "in between"));
      Map<String, AttributeValue> appended = versionItem(counters, layout, counter.id());

      VersionConflictException e = assertThrows(VersionConflictException.class,
          () -> storage.reindex(counters.definition(), stale));

      assertEquals(1, e.expectedVersion());
      assertEquals(OptionalLong.of(2), e.actualVersion());
      assertEquals(appended, versionItem(counters, layout, counter.id()));
    }
    assertEquals(Optional.empty(), reservationHolder(counters.definition().name(), note), "the stale state's value was not reserved");
    // The repository reloads instead: the current state is written.
    counters.reindex(withNote.id());
    assertEquals(withNote.id(), counters.loadByNote(note).id());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void withOnlyAUniqueColumnTheVersionIsStillChecked(LayoutKind layout) {
    IndexColumns<Counter> noteOnly = new IndexColumns<>() {
      @Override
      public List<IndexColumn> columns() {
        return List.of(IndexedCounterRepository.NOTE);
      }

      @Override
      public Map<String, String> values(Counter state) {
        return state.lastNote().isEmpty() ? Map.of() : Map.of(IndexedCounterRepository.NOTE.name(), state.lastNote());
      }
    };
    CounterRepository counters = new CounterRepository(store, CounterRepository
        .builder(freshAggregateName(), store.objectMapper(), SnapshotPolicy.every(5))
        .indexColumns(noteOnly)
        .layout(layout)
        .build());
    StorageLayout storage = TestDynamo.internals(store).layoutFor(counters.definition());
    String aggregateName = counters.definition().name();
    CounterId id = CounterId.random();
    String note = fresh("only");
    counters.create(List.of(new CounterCreated(id, "unique only"), new Noted(note)));
    TestDynamo.client().deleteItem(b -> b
        .tableName(store.config().snapshotTable())
        .key(reservationKey(aggregateName, note)));
    LoadedStream<Counter> stale = storage.load(counters.definition(), id).orElseThrow();
    counters.append(id, 1, new Incremented(1, "in between"));

    // No slot to write: on the journal the transaction checks the head row's version on its own.
    assertThrows(VersionConflictException.class, () -> storage.reindex(counters.definition(), stale));
    assertEquals(Optional.empty(), reservationHolder(aggregateName, note));

    assertEquals(2, counters.reindex(id).version());
    assertEquals(Optional.of(id.value()), reservationHolder(aggregateName, note));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void reindexAllBackfillsEveryStreamAndReportsEveryDuplicate(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String name = fresh("all");
    List<Counter> originals = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      String note = fresh("note" + i);
      Counter counter = create(counters, name, new Noted(note));
      originals.add(counter);
      notes.add(note);
      forget(counters, layout, counter.id(), note);
    }
    // Twins of the first two: of each pair, the one the listing reaches first takes the value back.
    List<Counter> twins = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Counter twin = create(counters, name, new Noted(notes.get(i).toUpperCase()));
      forget(counters, layout, twin.id(), notes.get(i));
      twins.add(twin);
    }
    assertEquals(List.of(), counters.listByName(name, PageRequest.first(100)).items());

    ReindexReport<CounterId> report = counters.reindexAll();

    assertEquals(Optional.empty(), report.nextCursor());
    assertEquals(7, report.reindexed(), "five without a twin and one of each pair");
    assertEquals(2, report.duplicates().size(), String.valueOf(report.duplicates()));
    for (int i = 0; i < 2; i++) {
      Set<CounterId> pair = Set.of(originals.get(i).id(), twins.get(i).id());
      ReindexReport.Duplicate<CounterId> duplicate = report.duplicates().stream()
          .filter(d -> pair.contains(d.id())).findFirst().orElseThrow();
      assertEquals("note", duplicate.column());
      CounterId holder = duplicate.holder().orElseThrow();
      assertEquals(pair, Set.of(duplicate.id(), holder));
      assertEquals(holder, counters.loadByNote(notes.get(i)).id());
      assertFalse(duplicate.toString().toLowerCase().contains(notes.get(i).toLowerCase()),
          "a duplicate, as logged, leaves the value out: " + duplicate);
      assertTrue(duplicate.toString().contains(duplicate.id().toString()), duplicate.toString());
    }
    for (int i = 2; i < 7; i++) {
      assertEquals(originals.get(i).id(), counters.loadByNote(notes.get(i)).id());
    }
    assertEquals(7, counters.listByName(name, PageRequest.first(100)).items().size(),
        "the duplicates' slots were not written either");

    // Run again, one page of 3 at a time as a resumable run would: the same report, versions untouched.
    long reindexed = 0;
    int duplicated = 0;
    PageRequest page = PageRequest.first(3);
    while (true) {
      ReindexReport<CounterId> part = counters.reindexAll(page);
      reindexed += part.reindexed();
      duplicated += part.duplicates().size();
      if (part.nextCursor().isEmpty()) {
        break;
      }
      page = PageRequest.after(part.nextCursor().get(), 3);
    }
    assertEquals(7, reindexed);
    assertEquals(2, duplicated);
    for (Counter counter : originals) {
      assertEquals(1, counters.loadVersioned(counter.id()).version());
    }
  }

  @Test
  void aTipFromBeforeTheListingKeyIsListedAfterItsReindex() {
    IndexedCounterRepository counters = counters(LayoutKind.TIP);
    Counter counter = create(counters, fresh("old tip"));
    TestDynamo.client().updateItem(b -> b
        .tableName(store.config().tipTable())
        .key(versionKey(counters, LayoutKind.TIP, counter.id()))
        .updateExpression("REMOVE #aid, #lk, #s0, #s1")
        .expressionAttributeNames(Map.of("#aid", TipAttributes.AID, "#lk", TipAttributes.LISTING,
            "#s0", SLOT_NAME, "#s1", SLOT_PARITY)));
    assertEquals(List.of(), counters.listAll(PageRequest.first(10)).items());
    assertEquals(0, counters.reindexAll().reindexed(), "reindexAll cannot reach a tip the listing lacks");

    counters.reindex(counter.id());

    Page<Counter> listed = counters.listAll(PageRequest.first(10));
    assertEquals(List.of(counter), listed.items());
    assertEquals(counter, counters.loadByName(counter.name()));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aReindexIsOneWriteAfterTheLoadAndWritesAnIndexOnlyForAMissingValue(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    Counter plain = create(counters, fresh("plain"));
    String note = fresh("n");
    Counter noted = create(counters, fresh("noted"), new Noted(note));
    forget(counters, layout, plain.id(), note);
    forget(counters, layout, noted.id(), note);
    CapacityRecorder capacity = TestDynamo.capacity();

    requests.reset();
    List<List<ConsumedCapacity>> backfill = capacity.during(() -> counters.reindex(plain.id()));
    assertEquals(Map.of("GetItem", 1, "UpdateItem", 1), requests.snapshot(), "no unique value: one UpdateItem");
    requests.reset();
    List<List<ConsumedCapacity>> backfillReserving = capacity.during(() -> counters.reindex(noted.id()));
    assertEquals(Map.of("GetItem", 1, "TransactWriteItems", 1), requests.snapshot(), "a unique value: one transaction");
    List<List<ConsumedCapacity>> again = capacity.during(() -> counters.reindex(plain.id()));
    List<List<ConsumedCapacity>> againReserving = capacity.during(() -> counters.reindex(noted.id()));

    assertTrue(CapacityRecorder.indexUnits(backfill) > 0, "the slots enter their indexes");
    assertTrue(CapacityRecorder.indexUnits(backfillReserving) > 0);
    assertEquals(0.0, CapacityRecorder.indexUnits(again), "an unchanged slot value writes no index");
    assertEquals(0.0, CapacityRecorder.indexUnits(againReserving));
  }

  @Test
  void theListenerHearsEachReindexAndEachPageOfReindexAll() {
    List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
    DynamoDbEventStore listened = TestDynamo.store(StoreConfig.defaults().withListener(heard::add));
    IndexedCounterRepository counters = new IndexedCounterRepository(listened, freshAggregateName(), LayoutKind.JOURNAL);
    List<CounterId> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(create(counters, fresh("heard")).id());
    }
    heard.clear();

    counters.reindex(ids.get(0));
    assertEquals(1, heard.size());
    OperationMetrics reindex = heard.get(0);
    assertEquals("reindex", reindex.operation());
    assertEquals(2, reindex.requests(), "a load and a write: " + reindex);
    assertEquals(1, reindex.attempts());
    assertTrue(reindex.writeCapacityUnits() > 0, reindex.toString());

    heard.clear();
    ReindexReport<CounterId> page = counters.reindexAll(PageRequest.first(2));
    assertEquals(2, page.reindexed());
    assertEquals(List.of("reindexAll"), heard.stream().map(OperationMetrics::operation).toList());
    assertEquals(2, heard.get(0).attempts(), "one write per stream of the page");

    heard.clear();
    assertEquals(3, counters.reindexAll().reindexed());
    assertEquals(List.of("reindexAll"), heard.stream().map(OperationMetrics::operation).distinct().toList(),
        "each page is its own operation");
  }

  private boolean listsByParity(IndexedCounterRepository counters, String parity, CounterId id) {
    PageRequest page = PageRequest.first(100);
    while (true) {
      Page<Counter> listed = counters.listByParity(parity, page);
      if (listed.items().stream().anyMatch(c -> c.id().equals(id))) {
        return true;
      }
      if (listed.nextCursor().isEmpty()) {
        return false;
      }
      page = PageRequest.after(listed.nextCursor().get(), 100);
    }
  }

  /** Leaves the aggregate as if its columns were declared after it was stored: no slots, no reservation. */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aReindexWhoseFirstSendHadAnUnknownOutcomeAndLostToAnAppendReloadsAndTriesAgain(LayoutKind layout) {
    String aggregate = freshAggregateName();
    IndexedCounterRepository counters = new IndexedCounterRepository(store, aggregate, layout);
    CounterId id = CounterId.random();
    String note = fresh("note");
    counters.create(List.of(new CounterCreated(id, fresh("name")), new Noted(note)));
    forget(counters, layout, id, note);
    // The reindex's first transaction fails with a server error that applied nothing, after another writer
    // appended: its resend finds the version moved.
    AppendBeforeTransaction interceptor = new AppendBeforeTransaction(() -> counters.append(id, 1, new Incremented(2, "x")));
    IndexedCounterRepository faulty = new IndexedCounterRepository(
        DynamoDbEventStore.create(TestDynamo.clientWith(interceptor), StoreConfig.defaults()), aggregate, layout);

    Versioned<Counter> reindexed = faulty.reindex(id);

    assertEquals(2, reindexed.version(), "reindexed the stream as the append left it");
    assertEquals(Optional.of(id), counters.findByNote(note).map(Counter::id));
  }

  /** Runs {@code concurrently} once, then fails the next transaction with a server error before sending it. */
  private static final class AppendBeforeTransaction implements ExecutionInterceptor {
    private final AtomicReference<Runnable> concurrently;

    AppendBeforeTransaction(Runnable concurrently) {
      this.concurrently = new AtomicReference<>(concurrently);
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
      if (context.request() instanceof TransactWriteItemsRequest) {
        Runnable action = concurrently.getAndSet(null);
        if (action != null) {
          action.run();
          throw InternalServerErrorException.builder().statusCode(500).message("injected").build();
        }
      }
    }
  }

  private void forget(IndexedCounterRepository counters, LayoutKind layout, CounterId id, String note) {
    TestDynamo.client().updateItem(b -> b
        .tableName(table(layout))
        .key(versionKey(counters, layout, id))
        .updateExpression("REMOVE #s0, #s1")
        .expressionAttributeNames(Map.of("#s0", SLOT_NAME, "#s1", SLOT_PARITY)));
    TestDynamo.client().deleteItem(b -> b
        .tableName(store.config().snapshotTable())
        .key(reservationKey(counters.definition().name(), note)));
  }

  private Optional<String> reservationHolder(String aggregateName, String note) {
    Map<String, AttributeValue> item = TestDynamo.client().getItem(b -> b
        .tableName(store.config().snapshotTable())
        .key(reservationKey(aggregateName, note))
        .consistentRead(true)).item();
    return item == null || item.isEmpty() ? Optional.empty() : Optional.of(item.get(IndexKeys.AID).s());
  }

  private static Map<String, AttributeValue> reservationKey(String aggregateName, String note) {
    return Map.of(
        IndexKeys.PKEY, AttributeValue.fromS(IndexKeys.valueKey(
            aggregateName, IndexedCounterRepository.NOTE.name(),
            IndexedCounterRepository.NOTE.normalize(note))),
        IndexKeys.SKEY, AttributeValue.fromS(IndexKeys.UNIQUE_SORT_KEY));
  }

  /** The item that carries the stream's version and index slots: the head row, or the tip. */
  private Map<String, AttributeValue> versionItem(IndexedCounterRepository counters, LayoutKind layout, CounterId id) {
    return TestDynamo.client().getItem(b -> b
        .tableName(table(layout))
        .key(versionKey(counters, layout, id))
        .consistentRead(true)).item();
  }

  private String table(LayoutKind layout) {
    return layout == LayoutKind.TIP ? store.config().tipTable() : store.config().snapshotTable();
  }

  private static Map<String, AttributeValue> versionKey(
      IndexedCounterRepository counters, LayoutKind layout, CounterId id) {
    String name = counters.definition().name();
    if (layout == LayoutKind.TIP) {
      return Map.of(
          TipAttributes.STREAM, AttributeValue.fromS(new TipKeys(name).streamName(id.value())),
          TipAttributes.INDEX, AttributeValue.fromN(Long.toString(TipKeys.TIP_INDEX)));
    }
    JournalKeys keys = new JournalKeys(name, counters.definition().shards());
    return Map.of(
        JournalAttributes.PKEY, AttributeValue.fromS(keys.partitionKey(id.value())),
        JournalAttributes.SKEY, AttributeValue.fromS(keys.headSortKey(id.value())));
  }
}
