package dev.esgen.bench.contention;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.SnapshotIntervalRepository;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Latencies;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.repository.Versioned;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Four threads running {@code transact} at once, on one shared aggregate and on four distinct ones, with
 * the store's default retry policy and snapshot interval, without and with the state cache
 * ({@code StoreConfig.withStateCache}); beside them the same commands in an immediate-retry loop (load,
 * decide, append at the loaded version, and on a conflict start again at once, as a peer without backoff
 * does), and the shared aggregate written through four stores, one per thread, as four processes would,
 * without and with the state cache.
 * Attempts per command are counted by the decide function, which runs once per attempt.
 */
public final class ContentionBenchmark {

  public static final int THREADS = 4;
  public static final String SHARED = "one shared aggregate";
  public static final String DISTINCT = "four distinct aggregates";
  public static final String IMMEDIATE_SHARED = "one shared aggregate, immediate retries";
  public static final String STATE_CACHE_SHARED = "one shared aggregate, state cache";
  public static final String STATE_CACHE_DISTINCT = "four distinct aggregates, state cache";
  public static final String FOUR_STORES_SHARED = "one shared aggregate, four stores";
  public static final String FOUR_STORES_STATE_CACHE_SHARED = "one shared aggregate, four stores, state cache";

  /** How many attempts the immediate-retry loop makes before it counts a command as given up. */
  public static final int IMMEDIATE_MAX_ATTEMPTS = 1_000;

  private static final StateCachePolicy CACHE = StateCachePolicy.of(1_000, Duration.ofMinutes(5));

  private final Settings settings;
  private final URI endpoint;

  public ContentionBenchmark(Settings settings, URI endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
  }

  /**
   * One case's outcome.
   *
   * @param name the case, one of the constants above
   * @param commands commands that completed
   * @param failed commands that gave up after the retry policy's last attempt (starved)
   * @param conflicts attempts that lost to another writer
   * @param maxAttempts the most attempts one command needed
   */
  public record Result(
      String name, int commands, int failed, long conflicts, double commandsPerSecond,
      double p99Attempts, int maxAttempts, double p50Millis, double p99Millis, double maxMillis,
      double requestsPerCommand, long finalVersion) {}

  public List<Result> run() throws Exception {
    Meter meter = new Meter();
    try (DynamoDbClient client = Clients.local(endpoint, Optional.of(meter))) {
      StoreConfig defaults = StoreConfig.defaults();
      SnapshotIntervalRepository carts = repository(client, defaults);
      SnapshotIntervalRepository cached = repository(client, defaults.withStateCache(CACHE));
      List<SnapshotIntervalRepository> stores = new ArrayList<>();
      List<SnapshotIntervalRepository> cachedStores = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        stores.add(repository(client, defaults));
        cachedStores.add(repository(client, defaults.withStateCache(CACHE)));
      }
      warmUp(carts);
      warmUp(cached);
      List<SnapshotIntervalRepository> one = Collections.nCopies(THREADS, carts);
      List<Result> results = new ArrayList<>();
      // The shared cases take turns with the immediate loop, so that a slow spell of a shared machine does
      // not fall on one side only.
      results.add(run(SHARED, one, meter, true, ContentionBenchmark::transact));
      results.add(run(IMMEDIATE_SHARED, one, meter, true, ContentionBenchmark::immediately));
      results.add(run(STATE_CACHE_SHARED, Collections.nCopies(THREADS, cached), meter, true,
          ContentionBenchmark::transact));
      results.add(run(FOUR_STORES_SHARED, stores, meter, true, ContentionBenchmark::transact));
      results.add(run(FOUR_STORES_STATE_CACHE_SHARED, cachedStores, meter, true, ContentionBenchmark::transact));
      results.add(run(DISTINCT, one, meter, false, ContentionBenchmark::transact));
      results.add(run(STATE_CACHE_DISTINCT, Collections.nCopies(THREADS, cached), meter, false,
          ContentionBenchmark::transact));
      return results;
    }
  }

  /** How a case runs one command; {@code decide} counts the attempts. */
  @FunctionalInterface
  private interface Command {
    /** @return whether the command was applied; false when it gave up */
    boolean run(SnapshotIntervalRepository carts, CartId id, Function<Cart, List<CartEvent>> decide);
  }

  private static boolean transact(SnapshotIntervalRepository carts, CartId id, Function<Cart, List<CartEvent>> decide) {
    try {
      carts.transact(id, decide);
      return true;
    } catch (VersionConflictException gaveUp) {
      return false;
    }
  }

  /** The immediate-retry loop: load, decide, append at the loaded version; on a conflict, again at once. */
  private static boolean immediately(
      SnapshotIntervalRepository carts, CartId id, Function<Cart, List<CartEvent>> decide) {
    for (int attempt = 0; attempt < IMMEDIATE_MAX_ATTEMPTS; attempt++) {
      Versioned<Cart> loaded = carts.loadVersioned(id);
      try {
        carts.append(loaded, decide.apply(loaded.state()));
        return true;
      } catch (VersionConflictException lost) {
        // straight back to the load
      }
    }
    return false;
  }

  private static SnapshotIntervalRepository repository(DynamoDbClient client, StoreConfig config) {
    return new SnapshotIntervalRepository(DynamoDbEventStore.create(client, config), SnapshotPolicy.every(100));
  }

  private void warmUp(SnapshotIntervalRepository carts) {
    CartId id = open(carts);
    for (int i = 0; i < 20; i++) {
      carts.transact(id, cart -> cart.add("SKU-1", 1, 100));
    }
  }

  /** Runs the case: thread {@code t} sends its commands through {@code writers.get(t)}. */
  private Result run(String name, List<SnapshotIntervalRepository> writers, Meter meter, boolean shared,
      Command command) throws Exception {
    settings.progress().printf("  contention: %s%n", name);
    SnapshotIntervalRepository carts = writers.get(0);
    List<CartId> ids = new ArrayList<>();
    CartId sharedId = open(carts);
    for (int t = 0; t < THREADS; t++) {
      ids.add(shared ? sharedId : open(carts));
    }
    int perThread = settings.contentionCommandsPerThread();
    Latencies latencies = new Latencies(THREADS * perThread);
    List<Integer> attempts = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger failed = new AtomicInteger();
    AtomicLong conflicts = new AtomicLong();
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    Meter.Reading before = meter.read();
    long began;
    List<Future<?>> done = new ArrayList<>();
    try {
      began = System.nanoTime();
      for (int t = 0; t < THREADS; t++) {
        CartId id = ids.get(t);
        SnapshotIntervalRepository writer = writers.get(t);
        String sku = "SKU-" + t;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            AtomicInteger tries = new AtomicInteger();
            long commandStart = System.nanoTime();
            boolean applied = command.run(writer, id, cart -> {
              tries.incrementAndGet();
              return cart.add(sku, 1, 100);
            });
            if (!applied) {
              failed.incrementAndGet();
            }
            latencies.add(System.nanoTime() - commandStart);
            attempts.add(tries.get());
            conflicts.addAndGet(tries.get() - 1L);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    double seconds = (System.nanoTime() - began) / 1e9;
    Meter.Reading used = meter.read().minus(before);
    List<Integer> sorted = new ArrayList<>(attempts);
    Collections.sort(sorted);
    int total = sorted.size();
    double p99Attempts = sorted.get(Math.max(0, (int) Math.ceil(0.99 * total) - 1));
    int completed = total - failed.get();
    long version = carts.loadVersioned(sharedId).version();
    return new Result(name, completed, failed.get(), conflicts.get(), completed / seconds, p99Attempts,
        sorted.get(total - 1), latencies.percentileMillis(50), latencies.percentileMillis(99), latencies.maxMillis(),
        (double) used.requests() / total, version);
  }

  private static CartId open(SnapshotIntervalRepository carts) {
    CartId id = CartId.random();
    carts.create(CartOpened.of(id, "benchmark-owner"));
    return id;
  }
}
