package dev.esgen.bench.contention;

import dev.esgen.bench.Settings;
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
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Four threads running {@code transact} at once, on one shared aggregate and on four distinct ones, with
 * the store's default retry policy and snapshot interval, without and with the state cache
 * ({@code StoreConfig.withStateCache}). Attempts per command are counted by the
 * decide function, which {@code transact} runs once per attempt.
 */
public final class ContentionBenchmark {

  public static final int THREADS = 4;
  public static final String STATE_CACHE_SHARED = "one shared aggregate, state cache";
  public static final String STATE_CACHE_DISTINCT = "four distinct aggregates, state cache";

  private final Settings settings;
  private final URI endpoint;

  public ContentionBenchmark(Settings settings, URI endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
  }

  /**
   * One case's outcome.
   *
   * @param name "one shared aggregate" or "four distinct aggregates", with ", state cache" when on
   * @param commands commands that completed
   * @param failed commands that gave up after the retry policy's last attempt (starved)
   * @param conflicts attempts that lost to another writer
   * @param maxAttempts the most attempts one command needed
   */
  public record Result(
      String name, int commands, int failed, long conflicts, double commandsPerSecond,
      double p99Attempts, int maxAttempts, double p99Millis, double maxMillis, double requestsPerCommand,
      long finalVersion) {}

  public List<Result> run() throws Exception {
    Meter meter = new Meter();
    try (DynamoDbClient client = Clients.local(endpoint, Optional.of(meter))) {
      SnapshotIntervalRepository carts = new SnapshotIntervalRepository(
          DynamoDbEventStore.create(client, StoreConfig.defaults()), SnapshotPolicy.every(100));
      SnapshotIntervalRepository cached = new SnapshotIntervalRepository(DynamoDbEventStore.create(client,
          StoreConfig.defaults().withStateCache(StateCachePolicy.of(1_000, Duration.ofMinutes(5)))),
          SnapshotPolicy.every(100));
      warmUp(carts);
      warmUp(cached);
      List<Result> results = new ArrayList<>();
      results.add(run("one shared aggregate", carts, meter, true));
      results.add(run("four distinct aggregates", carts, meter, false));
      results.add(run(STATE_CACHE_SHARED, cached, meter, true));
      results.add(run(STATE_CACHE_DISTINCT, cached, meter, false));
      return results;
    }
  }

  private void warmUp(SnapshotIntervalRepository carts) {
    CartId id = open(carts);
    for (int i = 0; i < 20; i++) {
      carts.transact(id, cart -> cart.add("SKU-1", 1, 100));
    }
  }

  private Result run(String name, SnapshotIntervalRepository carts, Meter meter, boolean shared) throws Exception {
    settings.progress().printf("  contention: %s%n", name);
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
        String sku = "SKU-" + t;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            AtomicInteger tries = new AtomicInteger();
            long commandStart = System.nanoTime();
            try {
              carts.transact(id, cart -> {
                tries.incrementAndGet();
                return cart.add(sku, 1, 100);
              });
            } catch (VersionConflictException gaveUp) {
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
        sorted.get(total - 1), latencies.percentileMillis(99), latencies.maxMillis(),
        (double) used.requests() / total, version);
  }

  private static CartId open(SnapshotIntervalRepository carts) {
    CartId id = CartId.random();
    carts.create(CartOpened.of(id, "benchmark-owner"));
    return id;
  }
}
