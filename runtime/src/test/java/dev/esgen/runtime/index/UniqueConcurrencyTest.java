package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Real threads against DynamoDB Local trying to break uniqueness and index consistency. */
class UniqueConcurrencyTest {

  private static final String CLEAR = "c".repeat(65);

  private final String name = "uq-" + UUID.randomUUID().toString().substring(0, 8);

  private static DynamoDbEventStore store(boolean cached) {
    StoreConfig config = StoreConfig.defaults();
    if (cached) {
      config = config.withStateCache(StateCachePolicy.of(1000, Duration.ofMinutes(5)));
    }
    return TestDynamo.store(config);
  }

  private IndexedCounterRepository counters(DynamoDbEventStore store, LayoutKind layout) {
    return new IndexedCounterRepository(store, name, layout);
  }

  private IndexAudit audit(LayoutKind layout) {
    return new IndexAudit(StoreConfig.defaults(), name, layout, counters(store(false), layout));
  }

  private static <T> List<T> race(int threads, Callable<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          start.await();
          return task.call();
        }));
      }
      start.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void manyCreatorsOfOneValueExactlyOneWinsAndLosersLeaveNothing(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = counters(store(false), layout);
    for (int round = 0; round < 4; round++) {
      String note = "Race-" + round + "-" + UUID.randomUUID();
      AtomicInteger variant = new AtomicInteger();
      List<Object> results = race(8, () -> {
        int v = variant.getAndIncrement();
        String given = v % 2 == 0 ? note.toUpperCase() : note.toLowerCase();
        CounterId id = CounterId.random();
        try {
          counters.create(List.of(new CounterCreated(id, "racer"), new Incremented(1, "x"), new Noted(given)));
          return id;
        } catch (DuplicateValueException e) {
          assertEquals("note", e.column());
          assertEquals(given, e.value());
          return e;
        }
      });
      List<CounterId> winners = results.stream().filter(r -> r instanceof CounterId).map(r -> (CounterId) r).toList();
      assertEquals(1, winners.size(), "round " + round + ": " + results);
      assertEquals(winners.get(0), counters.loadByNote(note).id());
    }
    Map<String, Counter> all = audit(layout).check();
    assertEquals(4, all.size(), "only the winners exist");
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void swappingValuesConcurrently(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = counters(store(false), layout);
    for (int round = 0; round < 5; round++) {
      String x = "x-" + UUID.randomUUID();
      String y = "y-" + UUID.randomUUID();
      CounterId a = CounterId.random();
      CounterId b = CounterId.random();
      counters.create(List.of(new CounterCreated(a, "a"), new Noted(x)));
      counters.create(List.of(new CounterCreated(b, "b"), new Noted(y)));
      AtomicInteger who = new AtomicInteger();
      race(2, () -> {
        boolean first = who.getAndIncrement() == 0;
        try {
          counters.transact(first ? a : b, c -> List.of(new Noted(first ? y : x)));
          return true;
        } catch (DuplicateValueException e) {
          return false;
        }
      });
      audit(layout).check();
    }
  }

  /**
   * One aggregate moves between x and y while others keep trying to take x: whoever holds x when all
   * stops, the tables agree, and x is never held twice.
   */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void movingAwayFromAValueWhileOthersClaimIt(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = counters(store(false), layout);
    String x = "X-" + UUID.randomUUID();
    CounterId mover = CounterId.random();
    counters.create(List.of(new CounterCreated(mover, "mover"), new Noted(x)));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger index = new AtomicInteger();
    List<Integer> wins = race(5, () -> {
      int me = index.getAndIncrement();
      int won = 0;
      if (me == 0) {
        for (int i = 0; i < 20; i++) {
          String next = i % 2 == 0 ? "y-" + i : x.toLowerCase();
          try {
            counters.transact(mover, c -> List.of(new Noted(next)));
          } catch (DuplicateValueException e) {
            // x taken by a claimer
          }
        }
        stop.set(true);
        return 0;
      }
      CounterId claimer = CounterId.random();
      counters.create(new CounterCreated(claimer, "claimer"));
      while (!stop.get()) {
        try {
          counters.transact(claimer, c -> c.lastNote().isEmpty() ? List.of(new Noted(x)) : List.of());
          if (!counters.load(claimer).lastNote().isEmpty()) {
            won++;
            // and give it up again
            counters.transact(claimer, c -> List.of(new Noted(CLEAR)));
          }
        } catch (DuplicateValueException e) {
          // someone else holds it
        }
      }
      return won;
    });
    audit(layout).check();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void changingAndBackInOneAppendAndInSuccessiveOnes(LayoutKind layout) {
    IndexedCounterRepository counters = counters(store(false), layout);
    String a = "a-" + UUID.randomUUID();
    String b = "b-" + UUID.randomUUID();
    CounterId id = CounterId.random();
    counters.create(List.of(new CounterCreated(id, "n"), new Noted(a)));
    counters.transact(id, c -> List.of(new Noted(b), new Noted(CLEAR), new Noted(a.toUpperCase())));
    audit(layout).check();
    assertEquals(id, counters.loadByNote(a).id());
    assertEquals(Optional.empty(), counters.findByNote(b));
    counters.transact(id, c -> List.of(new Noted(b)));
    counters.transact(id, c -> List.of(new Noted(a)));
    counters.transact(id, c -> List.of(new Noted(CLEAR)));
    audit(layout).check();
    counters.transact(id, c -> List.of(new Noted(CLEAR), new Noted(b)));
    counters.transact(id, c -> List.of(new Noted(b.toUpperCase())));
    audit(layout).check();
    CounterId other = CounterId.random();
    assertThrows(DuplicateValueException.class,
        () -> counters.create(List.of(new CounterCreated(other, "o"), new Noted(b))));
    counters.create(List.of(new CounterCreated(other, "o"), new Noted(a)));
    audit(layout).check();
  }

  /**
   * Random changes from a small pool of values by many threads through two stores over the same tables,
   * one with a state cache: every reservation must end where the streams say.
   */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void randomChangesThroughTwoStoresOneCached(LayoutKind layout) throws Exception {
    IndexedCounterRepository cached = counters(store(true), layout);
    IndexedCounterRepository plain = counters(store(false), layout);
    List<CounterId> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      CounterId id = CounterId.random();
      plain.create(new CounterCreated(id, "r" + i));
      ids.add(id);
    }
    String[] pool = {"p-" + name, "q-" + name, "r-" + name, CLEAR};
    AtomicInteger index = new AtomicInteger();
    race(8, () -> {
      int me = index.getAndIncrement();
      IndexedCounterRepository repo = me % 2 == 0 ? cached : plain;
      ThreadLocalRandom random = ThreadLocalRandom.current();
      for (int i = 0; i < 25; i++) {
        CounterId id = ids.get(random.nextInt(ids.size()));
        String note = pool[random.nextInt(pool.length)];
        String given = random.nextBoolean() ? note.toUpperCase() : note;
        try {
          if (random.nextInt(4) == 0) {
            Versioned<Counter> seen = repo.loadVersioned(id);
            repo.append(id, seen.version(), List.of(new Incremented(1, "t"), new Noted(given)));
          } else {
            repo.transact(id, c -> List.of(new Incremented(1, "t"), new Noted(given)));
          }
        } catch (DuplicateValueException | VersionConflictException e) {
          // expected under contention
        }
      }
      return null;
    });
    audit(layout).check();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void reindexWhileAppendsRun(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = counters(store(false), layout);
    List<CounterId> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      CounterId id = CounterId.random();
      counters.create(new CounterCreated(id, "r" + i));
      ids.add(id);
    }
    String[] pool = {"p-" + name, "q-" + name, "s-" + name, CLEAR};
    AtomicInteger index = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    race(5, () -> {
      int me = index.getAndIncrement();
      if (me == 0) {
        while (!stop.get()) {
          counters.reindexAll();
          counters.reindex(ids.get(ThreadLocalRandom.current().nextInt(ids.size())));
        }
        return null;
      }
      ThreadLocalRandom random = ThreadLocalRandom.current();
      for (int i = 0; i < 20; i++) {
        CounterId id = ids.get(random.nextInt(ids.size()));
        String note = pool[random.nextInt(pool.length)];
        try {
          counters.transact(id, c -> List.of(new Incremented(1, "t"), new Noted(note)));
        } catch (DuplicateValueException e) {
          // taken
        }
      }
      if (index.incrementAndGet() == 9) {
        stop.set(true);
      }
      return null;
    });
    audit(layout).check();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void listingWhileParitiesChangeReturnsOnlyHolders(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = counters(store(false), layout);
    List<CounterId> ids = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      CounterId id = CounterId.random();
      counters.create(new CounterCreated(id, "same-" + name));
      ids.add(id);
    }
    AtomicInteger index = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    race(4, () -> {
      int me = index.getAndIncrement();
      if (me < 2) {
        for (int i = 0; i < 30; i++) {
          counters.transact(ids.get(ThreadLocalRandom.current().nextInt(ids.size())), c -> c.increment("t"));
        }
        stop.set(true);
        return null;
      }
      while (!stop.get()) {
        Optional<String> cursor = Optional.empty();
        do {
          PageRequest request = cursor.map(c -> PageRequest.after(c, 3)).orElse(PageRequest.first(3));
          Page<Counter> page = counters.listByParity("odd", request);
          for (Counter c : page.items()) {
            assertEquals(1, c.value() % 2, "a listed counter holds the value");
          }
          cursor = page.nextCursor();
        } while (cursor.isPresent());
      }
      return null;
    });
    audit(layout).check();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void commandRetriesOfAUniqueChange(LayoutKind layout) {
    IndexedCounterRepository counters = counters(store(false), layout);
    String a = "a-" + UUID.randomUUID();
    String b = "b-" + UUID.randomUUID();
    CounterId id = CounterId.random();
    counters.create(List.of(new CounterCreated(id, "n"), new Noted(a)));
    Versioned<Counter> first = counters.transact(id, "cmd-1", c -> List.of(new Noted(b)));
    Versioned<Counter> again = counters.transact(id, "cmd-1", c -> List.of(new Noted(b)));
    assertEquals(first.version(), again.version());
    audit(layout).check();
    // another takes a, then the command repeats with an old expected version
    CounterId other = CounterId.random();
    counters.create(List.of(new CounterCreated(other, "o"), new Noted(a)));
    Versioned<Counter> repeated = counters.append(id, 1, "cmd-1", List.of(new Noted(b)));
    assertEquals(first.version(), repeated.version());
    audit(layout).check();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void valuesAtTheKeyLimit(LayoutKind layout) {
    IndexedCounterRepository counters = counters(store(false), layout);
    String prefix = name + "#note#";
    String fits = "f".repeat(IndexKeysLimit.LIMIT - prefix.length());
    CounterId id = CounterId.random();
    counters.create(List.of(new CounterCreated(id, "n")));
    // a note over 64 characters clears the note in this aggregate, so the limit is reached through the name
    audit(layout).check();
    String namePrefix = name + "#name#";
    CounterId big = CounterId.random();
    counters.create(new CounterCreated(big, "n".repeat(IndexKeysLimit.LIMIT - namePrefix.length())));
    CounterId tooBig = CounterId.random();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> counters.create(new CounterCreated(tooBig, "n".repeat(IndexKeysLimit.LIMIT - namePrefix.length() + 1))));
    assertTrue(e.getMessage().contains("name"), e.getMessage());
    assertTrue(e.getMessage().contains("2048"), e.getMessage());
    assertEquals(Optional.empty(), counters.findById(tooBig));
    // multi-byte: 'é' is two bytes
    CounterId accented = CounterId.random();
    assertThrows(IllegalArgumentException.class,
        () -> counters.create(
            new CounterCreated(accented, "é".repeat((IndexKeysLimit.LIMIT - namePrefix.length()) / 2 + 1))));
    assertEquals(Optional.empty(), counters.findById(accented));
    assertTrue(fits.length() > 0);
    audit(layout).check();
  }

  private static final class IndexKeysLimit {
    static final int LIMIT = dev.esgen.runtime.internal.keys.IndexKeys.KEY_LIMIT_BYTES;
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aVersionConflictBetweenTwoUniqueChanges(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = counters(store(false), layout);
    for (int r = 0; r < 5; r++) {
      int round = r;
      CounterId id = CounterId.random();
      counters.create(List.of(new CounterCreated(id, "n"), new Noted("v0-" + round + name)));
      AtomicInteger index = new AtomicInteger();
      race(4, () -> {
        int me = index.getAndIncrement();
        try {
          counters.append(id, 1, List.of(new Noted("v" + (me + 1) + "-" + round + name)));
        } catch (VersionConflictException e) {
          // lost
        }
        return null;
      });
      audit(layout).check();
    }
  }

  @SuppressWarnings("unused")
  private static List<CounterEvent> none() {
    return List.of();
  }

  /**
   * Another process moved the value and a third aggregate took the old one: the cached store's change must
   * not touch it.
   */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aStaleCachedValueIsNotWhatIsReleased(LayoutKind layout) {
    IndexedCounterRepository first = counters(store(true), layout);
    IndexedCounterRepository second = counters(store(true), layout);
    String x = "x-" + name;
    String y = "y-" + name;
    String z = "z-" + name;
    CounterId a = CounterId.random();
    first.create(List.of(new CounterCreated(a, "a"), new Noted(x)));
    assertEquals(x, first.load(a).lastNote());
    second.transact(a, c -> List.of(new Noted(y)));
    CounterId b = CounterId.random();
    second.create(List.of(new CounterCreated(b, "b"), new Noted(x)));
    first.transact(a, c -> List.of(new Noted(z)));
    assertEquals(b, first.loadByNote(x).id());
    assertEquals(a, first.loadByNote(z).id());
    assertEquals(Optional.empty(), first.findByNote(y));
    // and with an explicit version on the cached state
    second.transact(a, c -> List.of(new Noted(y)));
    assertThrows(VersionConflictException.class, () -> first.append(a, 3, List.of(new Noted(CLEAR))));
    audit(layout).check();
    first.append(a, 4, List.of(new Noted(CLEAR)));
    audit(layout).check();
  }
}
