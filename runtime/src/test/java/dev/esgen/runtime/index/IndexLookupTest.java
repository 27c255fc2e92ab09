package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.InvalidCursorException.Problem;
import dev.esgen.runtime.error.InvalidCursorException;
import dev.esgen.runtime.error.ValueNotFoundException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.query.Cursors;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.CapacityRecorder;
import dev.esgen.runtime.testing.RequestCounter;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

/**
 * Index columns and unique values behave the same on both layouts, against DynamoDB Local; the tip
 * layout's request counts and index writes are checked on their own.
 */
class IndexLookupTest {

  private final DynamoDbEventStore store = TestDynamo.store();
  private final RequestCounter requests = TestDynamo.requests();

  private IndexedCounterRepository counters(LayoutKind layout) {
    return new IndexedCounterRepository(store, layout, 0);
  }

  private static String fresh(String what) {
    return what + "-" + UUID.randomUUID();
  }

  private static Counter create(IndexedCounterRepository counters, String name, CounterEvent... more) {
    CounterId id = CounterId.random();
    List<CounterEvent> events = new ArrayList<>(List.of(new CounterCreated(id, name)));
    events.addAll(List.of(more));
    return counters.create(events).state();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void findsMaybeFindsAndListsByEveryColumn(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String name = fresh("name");
    String note = fresh("Note");
    Counter noted = create(counters, name, new Noted(note));
    Counter other = create(counters, name);

    assertEquals(noted, counters.loadByNote(note));
    assertEquals(noted, counters.loadByNote(note.toUpperCase()), "the note is compared ignoring case");
    assertEquals(Optional.empty(), counters.findByNote(fresh("nobody")));
    ValueNotFoundException missing =
        assertThrows(ValueNotFoundException.class, () -> counters.loadByNote("no such note"));
    assertEquals("note", missing.column());

    List<Counter> byName = counters.listByName(name, PageRequest.first(10)).items();
    List<Counter> expected = List.of(noted, other).stream()
        .sorted((a, b) -> a.id().value().compareTo(b.id().value())).toList();
    assertEquals(expected, byName, "ordered by id string");
    assertEquals(expected.get(0), counters.loadByName(name), "the smallest id string holding the value");
    assertEquals(Optional.empty(), counters.findByName(fresh("nobody")));
    assertThrows(IllegalArgumentException.class, () -> counters.findByNote(null));
  }

  /**
   * "Ordered by id string" is DynamoDB's order of string keys, by their UTF-8 bytes: it differs from
   * String.compareTo (UTF-16 units) for a character beyond U+FFFF against one from U+E000 to U+FFFF.
   */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void idsAreOrderedByTheirUtf8Bytes(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String name = fresh("name");
    String suffix = UUID.randomUUID().toString();
    CounterId emoji = new CounterId("x\uD83D\uDE00-" + suffix);
    CounterId replacement = new CounterId("x\uFFFD-" + suffix);
    counters.create(new CounterCreated(emoji, name));
    counters.create(new CounterCreated(replacement, name));
    assertTrue(emoji.value().compareTo(replacement.value()) < 0, "Java's order puts the emoji first");

    assertEquals(List.of(replacement, emoji),
        counters.listByName(name, PageRequest.first(10)).items().stream().map(Counter::id).toList());
    assertEquals(replacement, counters.loadByName(name).id(), "the smallest in UTF-8 byte order");
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aValueTooLongToBeStoredIsFoundNowhereWithoutARequest(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String tooLong = "x".repeat(IndexKeys.KEY_LIMIT_BYTES);
    requests.reset();

    assertEquals(Optional.empty(), counters.findByNote(tooLong));
    assertThrows(ValueNotFoundException.class, () -> counters.loadByNote(tooLong));
    assertEquals(Optional.empty(), counters.findByName(tooLong));
    assertEquals(new Page<>(List.of(), Optional.empty()), counters.listByName(tooLong, PageRequest.first(10)));
    assertEquals(Map.of(), requests.snapshot(), "appends refuse such a value, so nothing can hold it");
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aValueWithHalfASurrogatePairIsRefusedBeforeAnyWriteAndFoundNowhere(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String note = fresh("note");
    Counter holder = create(counters, fresh("holder"), new Noted(note + "?"));
    // Java's UTF-8 encoder writes '?' for a lone half: stored, this value would take the holder's.
    String unpaired = note + (char) 0xD800;
    CounterId id = CounterId.random();
    requests.reset();

    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> counters.create(List.of(new CounterCreated(id, fresh("c")), new Noted(unpaired))));
    assertTrue(refused.getMessage().contains("char " + note.length() + " is half of a surrogate pair"),
        refused.getMessage());
    assertEquals(Optional.empty(), counters.findByNote(unpaired));
    assertEquals(Map.of(), requests.snapshot(), "refused before any write, found nowhere without a request");
    assertEquals(Optional.empty(), counters.findById(id));
    assertEquals(holder, counters.loadByNote(note + "?"));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void listingPagesWithCursorsWithoutGapsOrDuplicates(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String name = fresh("bulk");
    Set<CounterId> created = new HashSet<>();
    for (int i = 0; i < 23; i++) {
      created.add(create(counters, name).id());
    }
    List<CounterId> listed = new ArrayList<>();
    int pages = 0;
    Page<Counter> page = counters.listByName(name, PageRequest.first(5));
    while (true) {
      pages++;
      assertTrue(page.items().size() <= 5);
      page.items().forEach(c -> listed.add(c.id()));
      if (page.nextCursor().isEmpty()) {
        break;
      }
      page = counters.listByName(name, PageRequest.after(page.nextCursor().get(), 5));
    }
    assertEquals(created, Set.copyOf(listed));
    assertEquals(created.size(), listed.size(), "no duplicates");
    assertTrue(pages >= 5, "23 items in pages of 5");
    List<String> order = listed.stream().map(CounterId::value).toList();
    assertEquals(order.stream().sorted().toList(), order, "ordered by id string");
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void listAllPagesThroughEveryAggregateOnce(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    Set<CounterId> created = new HashSet<>();
    for (int i = 0; i < 9; i++) {
      created.add(create(counters, fresh("all")).id());
    }
    List<CounterId> listed = new ArrayList<>();
    PageRequest request = PageRequest.first(7);
    while (true) {
      Page<Counter> page = counters.listAll(request);
      assertTrue(page.items().size() <= 7);
      page.items().forEach(c -> listed.add(c.id()));
      if (page.nextCursor().isEmpty()) {
        break;
      }
      request = PageRequest.after(page.nextCursor().get(), 7);
    }
    assertEquals(listed.size(), Set.copyOf(listed).size(), "no duplicates");
    assertTrue(listed.containsAll(created));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aCursorOfAnotherListingIsRefusedBeforeDynamoDbSeesIt(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String name = fresh("paged");
    for (int i = 0; i < 2; i++) {
      create(counters, name);
    }
    // Its own aggregate type: other tests leave undecodable counters behind.
    CounterRepository plain = new CounterRepository(store, CounterRepository.builder(
        "cursor-counter", store.objectMapper(), SnapshotPolicy.every(100)).layout(layout).build());
    for (int i = 0; i < 2; i++) {
      plain.create(new CounterCreated(CounterId.random(), "plain"));
    }
    String byName = cursor(counters.listByName(name, PageRequest.first(1)));
    String all = cursor(counters.listAll(PageRequest.first(1)));
    String otherAggregate = cursor(plain.listAll(PageRequest.first(1)));
    String prefix = "cursor for " + IndexedCounterRepository.NAME + " ";

    assertInvalid(Problem.OTHER_AGGREGATE, prefix + "listAll is invalid: it belongs to cursor-counter listAll",
        () -> counters.listAll(PageRequest.after(otherAggregate, 5)));
    assertInvalid(Problem.OTHER_AGGREGATE, prefix + "listBy:name is invalid: it belongs to cursor-counter listAll",
        () -> counters.listByName(name, PageRequest.after(otherAggregate, 5)));
    assertInvalid(Problem.OTHER_QUERY, prefix + "listBy:name is invalid: it belongs to " + IndexedCounterRepository.NAME
        + " listAll", () -> counters.listByName(name, PageRequest.after(all, 5)));
    assertInvalid(Problem.OTHER_QUERY, prefix + "listAll is invalid: it belongs to " + IndexedCounterRepository.NAME
        + " listBy:name", () -> counters.listAll(PageRequest.after(byName, 5)));
    assertInvalid(Problem.OTHER_QUERY, prefix + "listBy:parity is invalid: it belongs to "
        + IndexedCounterRepository.NAME + " listBy:name",
        () -> counters.listByParity("even", PageRequest.after(byName, 5)));
    assertInvalid(Problem.OTHER_QUERY, prefix + "listBy:name is invalid: it belongs to listBy:name of another value",
        () -> counters.listByName(fresh("other"), PageRequest.after(byName, 5)));

    String malformed = " is invalid: it is no cursor an esgen page returned, or it was cut short or changed";
    assertInvalid(Problem.MALFORMED, prefix + "listBy:name" + malformed,
        () -> counters.listByName(name, PageRequest.after("garbage!", 5)));
    assertInvalid(Problem.MALFORMED, prefix + "listAll" + malformed,
        () -> counters.listAll(PageRequest.after("Z2FyYmFnZQ", 5)));
    assertInvalid(Problem.MALFORMED, prefix + "listBy:name" + malformed,
        () -> counters.listByName(name, PageRequest.after(byName.substring(0, byName.length() - 4), 5)));
    assertInvalid(Problem.MALFORMED, prefix + "listAll" + malformed,
        () -> counters.listAll(PageRequest.after(all.substring(0, all.length() - 4), 5)));
    assertInvalid(Problem.MALFORMED, prefix + "listAll" + malformed,
        () -> counters.listAll(PageRequest.after(all.substring(0, all.length() - 1), 5)));

    // Made by hand with the right listing but keys DynamoDB would reject or that no query returns.
    Cursors byNameCursors = Cursors.listBy(IndexedCounterRepository.NAME, "name", name);
    Cursors allCursors = Cursors.listAll(IndexedCounterRepository.NAME);
    String noPosition = " is invalid: it holds no position ";
    for (Map<String, AttributeValue> position : List.of(
        Map.<String, AttributeValue>of(),
        Map.of("aid", AttributeValue.fromS("")),
        Map.of("aid", AttributeValue.fromS("x".repeat(1025))),
        Map.of("aid", AttributeValue.fromS("x"), "pkey", AttributeValue.fromS("x")))) {
      assertInvalid(Problem.MALFORMED, prefix + "listBy:name" + noPosition + "listBy:name can go on from",
          () -> counters.listByName(name, PageRequest.after(byNameCursors.encode(position), 5)));
    }
    String kept = layout == LayoutKind.TIP ? "aid" : "skey";
    String notKept = layout == LayoutKind.TIP ? "skey" : "aid";
    for (Map<String, AttributeValue> position : List.of(
        Map.<String, AttributeValue>of(),
        Map.of("shard", AttributeValue.fromS("4")),
        Map.of("shard", AttributeValue.fromS("-1")),
        Map.of("shard", AttributeValue.fromS("+1")),
        Map.of("shard", AttributeValue.fromS("99999999999")),
        Map.of("shard", AttributeValue.fromS("0"), "aid", AttributeValue.fromS("x"), "skey", AttributeValue.fromS("x")),
        Map.of("shard", AttributeValue.fromS("0"), notKept, AttributeValue.fromS("x")),
        Map.of("shard", AttributeValue.fromS("0"), kept, AttributeValue.fromS("x".repeat(1025))))) {
      assertInvalid(Problem.MALFORMED, prefix + "listAll" + noPosition + "listAll can go on from",
          () -> counters.listAll(PageRequest.after(allCursors.encode(position), 5)));
    }
    // ... while the cursors the listings returned go on.
    assertEquals(1, counters.listByName(name, PageRequest.after(byName, 5)).items().size());
    assertTrue(counters.listAll(PageRequest.after(all, 5)).items().size() > 0);
  }

  private static String cursor(Page<?> page) {
    return page.nextCursor().orElseThrow(() -> new AssertionError("the listing has a second page"));
  }

  private static void assertInvalid(Problem problem, String message, Executable listing) {
    InvalidCursorException e = assertThrows(InvalidCursorException.class, listing);
    assertEquals(message, e.getMessage());
    assertEquals(problem, e.problem());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void findAllLoadsManyAndLeavesOutMissingIds(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    List<CounterId> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(create(counters, fresh("many")).id());
    }
    counters.transact(ids.get(1), c -> List.of(new Incremented(2, "after creation")));
    CounterId missing = CounterId.random();
    Map<CounterId, Counter> found = counters.findAll(List.of(ids.get(2), missing, ids.get(0), ids.get(1), ids.get(0)));
    assertEquals(List.of(ids.get(2), ids.get(0), ids.get(1)), List.copyOf(found.keySet()));
    assertEquals(2, found.get(ids.get(1)).value());

    List<CounterId> many = new ArrayList<>(ids);
    for (int i = 0; i < 150; i++) {
      many.add(CounterId.random());
    }
    requests.reset();
    assertEquals(3, counters.findAll(many).size(), "more ids than one BatchGetItem takes");
    assertEquals(2, requests.of("BatchGetItem"), "150 ids take two BatchGetItems, not one request per id");
    if (layout == LayoutKind.TIP) {
      assertEquals(Map.of("BatchGetItem", 2), requests.snapshot(), "tips hold their snapshot: nothing else to read");
    }
  }

  @Test
  void findAllOnEventsOnlyTipsReadsTheirBatches() {
    CounterRepository counters = new CounterRepository(store, new TipPolicy(32 * 1024, 3, false));
    CounterId long1 = CounterId.random();
    CounterId short1 = CounterId.random();
    counters.create(new CounterCreated(long1, "long"));
    counters.create(new CounterCreated(short1, "short"));
    for (int i = 1; i <= 10; i++) {
      counters.transact(long1, c -> List.of(new Incremented(1, "x")));
    }
    Map<CounterId, Counter> found = counters.findAll(List.of(long1, short1));
    assertEquals(10, found.get(long1).value());
    assertEquals(new Counter(short1, "short", 0, 0, ""), found.get(short1));
    assertEquals(counters.load(long1), found.get(long1));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aDuplicateOnCreateNamesColumnAndValueAndWritesNothing(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String note = fresh("taken");
    Counter holder = create(counters, fresh("holder"), new Noted(note));
    CounterId id = CounterId.random();
    String name = fresh("loser");
    DuplicateValueException e = assertThrows(DuplicateValueException.class,
        () -> counters.create(List.of(new CounterCreated(id, name), new Noted(note.toUpperCase()))));
    assertEquals(IndexedCounterRepository.NAME, e.aggregateName());
    assertEquals("note", e.column());
    assertEquals(note.toUpperCase(), e.value());
    assertEquals(Optional.of(holder.id().value()), e.holderId());
    // The value may be personal data, and messages end up in logs: it is in value() only.
    assertEquals(IndexedCounterRepository.NAME + " note: the value is already taken by " + IndexedCounterRepository.NAME
        + " " + holder.id().value(), e.getMessage());
    assertEquals(Optional.empty(), counters.findById(id));
    assertEquals(List.of(), counters.listByName(name, PageRequest.first(10)).items());
    assertEquals(holder, counters.loadByNote(note));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void creatingAnExistingAggregateWithAUniqueValueReservesNothing(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    Counter existing = create(counters, fresh("existing"), new Noted(fresh("first")));
    String second = fresh("second");
    AggregateAlreadyExistsException e = assertThrows(AggregateAlreadyExistsException.class, () -> counters.create(
        List.of(new CounterCreated(existing.id(), "again"), new Noted(second))));
    assertEquals(OptionalLong.of(1), e.actualVersion());
    assertEquals(Optional.empty(), counters.findByNote(second));
    create(counters, fresh("taker"), new Noted(second));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aDuplicateOnUpdateLeavesStreamAndIndexValuesUnchanged(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String taken = fresh("taken");
    String own = fresh("own");
    Counter holder = create(counters, fresh("holder"), new Noted(taken));
    Counter other = create(counters, fresh("other"), new Noted(own));
    DuplicateValueException e = assertThrows(DuplicateValueException.class,
        () -> counters.transact(other.id(), c -> List.of(new Incremented(1, "odd now"), new Noted(taken))));
    assertEquals("note", e.column());
    assertEquals(taken, e.value());

    Versioned<Counter> after = counters.loadVersioned(other.id());
    assertEquals(1, after.version());
    assertEquals(other, after.state());
    assertEquals(holder, counters.loadByNote(taken));
    assertEquals(other, counters.loadByNote(own));
    assertTrue(counters.listByParity("odd", PageRequest.first(100)).items().stream()
        .noneMatch(c -> c.id().equals(other.id())), "the parity did not change");
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aValueMovesFromOneAggregateToAnother(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String x = fresh("x");
    String z = fresh("z");
    Counter first = create(counters, fresh("first"), new Noted(x));
    counters.transact(first.id(), c -> List.of(new Noted(z)));
    Counter second = create(counters, fresh("second"), new Noted(x));
    assertEquals(second.id(), counters.loadByNote(x).id());
    assertEquals(first.id(), counters.loadByNote(z).id());
    // and back: a note over 64 characters clears the value, which frees it at once
    counters.transact(second.id(), c -> List.of(new Noted("n".repeat(65))));
    counters.transact(first.id(), c -> List.of(new Noted(x)));
    assertEquals(first.id(), counters.loadByNote(x).id());
    assertEquals(Optional.empty(), counters.findByNote(z));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void ofTwoConcurrentCreatesWithTheSameValueExactlyOneWins(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = counters(layout);
    for (int round = 0; round < 5; round++) {
      String note = fresh("race");
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<Future<Boolean>> results = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          results.add(pool.submit(() -> {
            start.await();
            try {
              create(counters, fresh("racer"), new Noted(note));
              return true;
            } catch (DuplicateValueException e) {
              return false;
            }
          }));
        }
        start.countDown();
        int wins = 0;
        for (Future<Boolean> result : results) {
          wins += result.get() ? 1 : 0;
        }
        assertEquals(1, wins, "round " + round);
        assertTrue(counters.findByNote(note).isPresent());
      } finally {
        pool.shutdown();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aConflictingAppendChangesNoIndexValue(LayoutKind layout) {
    IndexedCounterRepository counters = counters(layout);
    String note = fresh("kept");
    Counter counter = create(counters, fresh("conflict"), new Noted(note));
    counters.append(counter.id(), 1, new Incremented(2, "first writer"));
    String lost = fresh("lost");
    assertThrows(VersionConflictException.class,
        () -> counters.append(counter.id(), 1, List.of(new Incremented(1, "odd"), new Noted(lost))));
    assertEquals(counter.id(), counters.loadByNote(note).id());
    assertEquals(Optional.empty(), counters.findByNote(lost));
    assertTrue(counters.listByParity("odd", PageRequest.first(100)).items().stream()
        .noneMatch(c -> c.id().equals(counter.id())));
    // the loser's reservation was not kept: another aggregate can take the value
    create(counters, fresh("taker"), new Noted(lost));
  }

  @Test
  void onTheTipOnlyAnAppendThatChangesAUniqueValueIsATransaction() {
    IndexedCounterRepository counters = counters(LayoutKind.TIP);
    CounterId id = CounterId.random();
    requests.reset();
    counters.create(new CounterCreated(id, fresh("plain")));
    assertEquals(Map.of("PutItem", 1), requests.snapshot(), "creation without a unique value");

    requests.reset();
    create(counters, fresh("noted"), new Noted(fresh("n")));
    assertEquals(Map.of("TransactWriteItems", 1), requests.snapshot(), "creation reserving a unique value");

    requests.reset();
    counters.append(id, 1, new Incremented(2, "no index value changes"));
    assertEquals(Map.of("GetItem", 1, "UpdateItem", 1), requests.snapshot());

    requests.reset();
    counters.append(id, 2, new Incremented(1, "the parity changes"));
    assertEquals(Map.of("GetItem", 1, "UpdateItem", 1), requests.snapshot(), "an @Indexed change is no transaction");

    requests.reset();
    counters.append(id, 3, new Noted(fresh("unique")));
    assertEquals(Map.of("GetItem", 1, "TransactWriteItems", 1), requests.snapshot());

    requests.reset();
    counters.append(id, 4, new Noted("x".repeat(65)));
    assertEquals(Map.of("GetItem", 1, "TransactWriteItems", 1), requests.snapshot(), "giving a value up");
  }

  @Test
  void onTheTipCalvingAndAUniqueChangeAreOneTransaction() {
    IndexedCounterRepository counters = new IndexedCounterRepository(store, LayoutKind.TIP, 3);
    String name = fresh("calving");
    Counter counter = create(counters, name, new Incremented(2, "a"), new Incremented(2, "b"));
    String note = fresh("while calving");
    requests.reset();
    counters.append(counter.id(), 1, List.of(new Incremented(2, "c"), new Noted(note)));
    assertEquals(Map.of("GetItem", 1, "TransactWriteItems", 1), requests.snapshot());
    assertEquals(1, batches(counter.id()), "the tip calved");
    assertEquals(new Counter(counter.id(), name, 6, 1, note), counters.load(counter.id()));
    assertEquals(counter.id(), counters.loadByNote(note).id());

    // a duplicate while calving: nothing is written, not even the batch
    Counter other = create(counters, fresh("other"), new Incremented(2, "a"), new Incremented(2, "b"));
    assertThrows(DuplicateValueException.class,
        () -> counters.append(other.id(), 1, List.of(new Incremented(2, "c"), new Noted(note))));
    assertEquals(0, batches(other.id()));
    assertEquals(1, counters.loadVersioned(other.id()).version());
  }

  @Test
  void onTheTipAnAppendThatChangesNoIndexValueWritesNoIndex() {
    IndexedCounterRepository counters = counters(LayoutKind.TIP);
    CounterId id = CounterId.random();
    CapacityRecorder capacity = TestDynamo.capacity();
    List<List<ConsumedCapacity>> created = capacity.during(
        () -> counters.create(new CounterCreated(id, fresh("capacity"))));
    List<List<ConsumedCapacity>> unchanged = capacity.during(
        () -> counters.append(id, 1, new Incremented(2, "even stays even")));
    List<List<ConsumedCapacity>> changesUnique = capacity.during(
        () -> counters.append(id, 2, new Noted(fresh("unique"))));
    List<List<ConsumedCapacity>> changesIndexed = capacity.during(
        () -> counters.append(id, 3, new Incremented(1, "even becomes odd")));

    assertEquals(1, unchanged.size());
    assertEquals(0.0, CapacityRecorder.indexUnits(unchanged), "no global secondary index was written");
    assertEquals(0.0, CapacityRecorder.indexUnits(changesUnique), "a reservation is a base-table item");
    assertTrue(CapacityRecorder.indexUnits(changesIndexed) > 0, String.valueOf(changesIndexed));
    assertTrue(CapacityRecorder.indexUnits(created) > 0, "creation writes the listing and slot indexes");
  }

  @Test
  void theTipCarriesItsIndexAttributes() {
    IndexedCounterRepository counters = counters(LayoutKind.TIP);
    String name = fresh("stored");
    Counter counter = create(counters, name, new Incremented(1, "odd"));
    Map<String, AttributeValue> tip = TestDynamo.client().getItem(b -> b
        .tableName(store.config().tipTable())
        .key(Map.of(
            TipAttributes.STREAM, AttributeValue.fromS(new TipKeys(IndexedCounterRepository.NAME)
                .streamName(counter.id().value())),
            TipAttributes.INDEX, AttributeValue.fromN(Long.toString(TipKeys.TIP_INDEX))))
        .consistentRead(true)).item();
    assertEquals(counter.id().value(), tip.get(TipAttributes.AID).s());
    assertEquals(new TipKeys(IndexedCounterRepository.NAME).listingKey(counter.id().value(), 4),
        tip.get(TipAttributes.LISTING).s());
    assertEquals(IndexedCounterRepository.NAME + "#name#" + name, tip.get(IndexKeys.slotAttribute(0)).s());
    assertEquals(IndexedCounterRepository.NAME + "#parity#odd", tip.get(IndexKeys.slotAttribute(1)).s());
  }

  private long batches(CounterId id) {
    return TestDynamo.client().query(b -> b
        .tableName(store.config().tipTable())
        .keyConditionExpression("p = :p AND i < :tip")
        .expressionAttributeValues(Map.of(
            ":p", AttributeValue.fromS(new TipKeys(IndexedCounterRepository.NAME).streamName(id.value())),
            ":tip", AttributeValue.fromN(Long.toString(TipKeys.TIP_INDEX))))
        .consistentRead(true)).count();
  }
}
