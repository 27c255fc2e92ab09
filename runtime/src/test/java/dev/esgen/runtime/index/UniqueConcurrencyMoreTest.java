package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class UniqueConcurrencyMoreTest {

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  private static final String CLEAR = "c".repeat(65);
  private final String name = "uq-" + UUID.randomUUID().toString().substring(0, 8);

  private IndexAudit audit(LayoutKind layout) {
    return new IndexAudit(StoreConfig.defaults(), name, layout,
        new IndexedCounterRepository(TestDynamo.store(), name, layout));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void asyncRandomChangesWithAndWithoutCache(LayoutKind layout) {
    AsyncEventStore cachedStore = async.store(StoreConfig.defaults()
        .withStateCache(StateCachePolicy.of(1000, Duration.ofMinutes(5))));
    AsyncEventStore plainStore = async.store(StoreConfig.defaults());
    AsyncCounterRepository cached = new AsyncCounterRepository(cachedStore, name, layout);
    AsyncCounterRepository plain = new AsyncCounterRepository(plainStore, name, layout);
    List<CounterId> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      CounterId id = CounterId.random();
      AsyncStoreFixture.await(plain.create(new CounterCreated(id, "r" + i)));
      ids.add(id);
    }
    String[] pool = {"p-" + name, "q-" + name, "r-" + name, CLEAR};
    for (int round = 0; round < 10; round++) {
      List<CompletableFuture<?>> running = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        AsyncCounterRepository repo = t % 2 == 0 ? cached : plain;
        ThreadLocalRandom random = ThreadLocalRandom.current();
        CounterId id = ids.get(random.nextInt(ids.size()));
        String note = pool[random.nextInt(pool.length)];
        String given = random.nextBoolean() ? note.toUpperCase() : note;
        running.add(repo.transact(id, c -> List.of(new Incremented(1, "t"), new Noted(given)))
            .handle((ok, failure) -> {
              if (failure != null) {
                Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                if (!(cause instanceof DuplicateValueException) && !(cause instanceof VersionConflictException)) {
                  throw new AssertionError(cause);
                }
              }
              return null;
            }));
      }
      AsyncStoreFixture.await(CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)));
    }
    audit(layout).check();
    // and the async lookups agree
    Map<String, Counter> all = audit(layout).check();
    for (Counter c : all.values()) {
      if (!c.lastNote().isEmpty()) {
        assertEquals(c.id(), AsyncStoreFixture.await(plain.loadByNote(c.lastNote().toLowerCase())).id());
      }
    }
  }

  /** Aggregates whose value does not change are listed exactly once while others come and go. */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void pagingNeverRepeatsOrSkipsAStableHolder(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = new IndexedCounterRepository(TestDynamo.store(), name, layout);
    List<CounterId> stable = new ArrayList<>();
    List<CounterId> flipping = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      CounterId id = CounterId.random();
      counters.create(List.of(new CounterCreated(id, "x"), new Incremented(1, "odd")));
      (i % 2 == 0 ? stable : flipping).add(id);
    }
    AtomicBoolean stop = new AtomicBoolean();
    Thread flipper = new Thread(() -> {
      while (!stop.get()) {
        counters.transact(flipping.get(ThreadLocalRandom.current().nextInt(flipping.size())), c -> c.increment("f"));
      }
    });
    flipper.start();
    try {
      for (int run = 0; run < 15; run++) {
        List<CounterId> seen = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        do {
          PageRequest request = cursor.map(c -> PageRequest.after(c, 3)).orElse(PageRequest.first(3));
          Page<Counter> page = counters.listByParity("odd", request);
          for (Counter c : page.items()) {
            assertEquals(1, c.value() % 2);
            seen.add(c.id());
          }
          cursor = page.nextCursor();
        } while (cursor.isPresent());
        Map<CounterId, Long> counts = seen.stream().collect(Collectors.groupingBy(c -> c, Collectors.counting()));
        for (CounterId id : stable) {
          assertEquals(1L, counts.getOrDefault(id, 0L), "stable " + id + " listed once");
        }
        assertEquals(seen.size(), Set.copyOf(seen).size(), "no aggregate twice");
        List<String> order = seen.stream().map(CounterId::value).toList();
        List<String> sorted = new ArrayList<>(order);
        sorted.sort(null);
        assertEquals(sorted, order, "ordered by id");
      }
    } finally {
      stop.set(true);
      flipper.join();
    }
    audit(layout).check();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void twinTriesOfOneCommandChangingAUniqueValue(LayoutKind layout) throws Exception {
    IndexedCounterRepository counters = new IndexedCounterRepository(TestDynamo.store(), name, layout);
    for (int r = 0; r < 5; r++) {
      int round = r;
      CounterId id = CounterId.random();
      String x = "x" + round + "-" + name;
      counters.create(List.of(new CounterCreated(id, "n"), new Noted(x)));
      String y = "y" + round + "-" + name;
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
      Map<Integer, Long> versions = new java.util.concurrent.ConcurrentHashMap<>();
      for (int t = 0; t < 4; t++) {
        int me = t;
        Thread thread = new Thread(() -> {
          try {
            versions.put(me, counters.transact(id, "cmd-" + round, c -> List.of(new Noted(y))).version());
          } catch (Throwable e) {
            failures.add(e);
          }
        });
        threads.add(thread);
      }
      threads.forEach(Thread::start);
      for (Thread thread : threads) {
        thread.join();
      }
      assertEquals(List.of(), failures);
      assertEquals(Set.of(2L), Set.copyOf(versions.values()));
      audit(layout).check();
    }
  }
}
