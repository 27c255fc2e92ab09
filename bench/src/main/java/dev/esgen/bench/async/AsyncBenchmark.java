package dev.esgen.bench.async;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartAsyncRepository;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Latencies;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.repository.Versioned;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@value #IN_FLIGHT} {@code transact} commands in flight on as many distinct aggregates, sent by one
 * caller thread through the generated {@code CartAsyncRepository}, beside the same commands from
 * {@value #IN_FLIGHT} threads on {@code CartRepository} and from a single thread on it. Each of the
 * {@value #IN_FLIGHT} lanes (an aggregate) runs its commands one after the other, so a lane never
 * conflicts with itself: the cases differ only in how the commands wait for DynamoDB. Both repositories
 * share one store (the async one through {@code withAsyncClient}), without a state cache, so every command
 * is a strongly consistent load and one transaction.
 */
public final class AsyncBenchmark {

  public static final int IN_FLIGHT = 32;
  public static final String SYNC_ONE_THREAD = "sync, 1 thread";
  public static final String SYNC_THREADS = "sync, 32 threads";
  public static final String ASYNC_ONE_CALLER = "async, 1 caller thread, 32 in flight";

  private final Settings settings;
  private final URI endpoint;

  public AsyncBenchmark(Settings settings, URI endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
  }

  /**
   * One case's outcome.
   *
   * @param commands commands sent, {@value #IN_FLIGHT} lanes of the same length
   * @param applied whether every aggregate ended at the version its commands lead to
   */
  public record Result(String name, int commands, double commandsPerSecond, double p50Millis, double p99Millis,
      double requestsPerCommand, boolean applied) {}

  /** The three cases, and how the async one compares. */
  public record Results(List<Result> cases) {

    public Result of(String name) {
      return cases.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** Async commands/s over those of {@value #IN_FLIGHT} sync threads: the target is at least 0.9. */
    public double asyncOverThreads() {
      return of(ASYNC_ONE_CALLER).commandsPerSecond() / of(SYNC_THREADS).commandsPerSecond();
    }

    /** Async commands/s over those of one sync thread. */
    public double asyncOverOneThread() {
      return of(ASYNC_ONE_CALLER).commandsPerSecond() / of(SYNC_ONE_THREAD).commandsPerSecond();
    }
  }

  public Results run() throws Exception {
    Meter meter = new Meter();
    try (DynamoDbClient client = Clients.local(endpoint, Optional.of(meter));
        DynamoDbAsyncClient asyncClient = Clients.localAsync(endpoint, Optional.of(meter), IN_FLIGHT)) {
      DynamoDbEventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults());
      CartRepository carts = new CartRepository(store);
      CartAsyncRepository asyncCarts = new CartAsyncRepository(store.withAsyncClient(asyncClient));
      int perLane = settings.contentionCommandsPerThread();
      // Untimed, so that both repositories' code paths and the Netty pool are warm before measuring.
      threads(carts, lanes(carts), Math.max(1, perLane / 5));
      async(asyncCarts, lanes(carts), Math.max(1, perLane / 5));
      List<Result> results = new ArrayList<>();
      results.add(measure(SYNC_THREADS, carts, meter, perLane, ids -> threads(carts, ids, perLane)));
      results.add(measure(ASYNC_ONE_CALLER, carts, meter, perLane, ids -> async(asyncCarts, ids, perLane)));
      results.add(measure(SYNC_ONE_THREAD, carts, meter, perLane, ids -> oneThread(carts, ids, perLane)));
      return new Results(results);
    }
  }

  /** Runs {@code perLane} commands on each of {@code ids}; returns each command's latency. */
  @FunctionalInterface
  private interface Case {
    Latencies run(List<CartId> ids) throws Exception;
  }

  private Result measure(String name, CartRepository carts, Meter meter, int perLane, Case run) throws Exception {
    settings.progress().printf("  async: %s%n", name);
    List<CartId> ids = lanes(carts);
    Meter.Reading before = meter.read();
    long began = System.nanoTime();
    Latencies latencies = run.run(ids);
    double seconds = (System.nanoTime() - began) / 1e9;
    Meter.Reading used = meter.read().minus(before);
    int commands = IN_FLIGHT * perLane;
    boolean applied = true;
    for (CartId id : ids) {
      applied &= carts.loadVersioned(id).version() == perLane + 1L;
    }
    return new Result(name, commands, commands / seconds, latencies.percentileMillis(50),
        latencies.percentileMillis(99), (double) used.requests() / commands, applied);
  }

  private static List<CartId> lanes(CartRepository carts) {
    List<CartId> ids = new ArrayList<>();
    for (int lane = 0; lane < IN_FLIGHT; lane++) {
      CartId id = CartId.random();
      carts.create(CartOpened.of(id, "async-benchmark"));
      ids.add(id);
    }
    return ids;
  }

  private static Latencies oneThread(CartRepository carts, List<CartId> ids, int perLane) {
    Latencies latencies = new Latencies(ids.size() * perLane);
    for (int i = 0; i < perLane; i++) {
      for (CartId id : ids) {
        long start = System.nanoTime();
        carts.transact(id, cart -> cart.add("SKU-1", 1, 100));
        latencies.add(System.nanoTime() - start);
      }
    }
    return latencies;
  }

  private static Latencies threads(CartRepository carts, List<CartId> ids, int perLane) throws Exception {
    Latencies latencies = new Latencies(ids.size() * perLane);
    CyclicBarrier start = new CyclicBarrier(ids.size());
    ExecutorService pool = Executors.newFixedThreadPool(ids.size());
    try {
      List<Future<?>> done = new ArrayList<>();
      for (CartId id : ids) {
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perLane; i++) {
            long began = System.nanoTime();
            carts.transact(id, cart -> cart.add("SKU-1", 1, 100));
            latencies.add(System.nanoTime() - began);
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
    return latencies;
  }

  /**
   * The calling thread starts every lane's first command and then only waits: each lane's next command
   * is started by the completion of its previous one, on whichever thread completed it.
   */
  private static Latencies async(CartAsyncRepository carts, List<CartId> ids, int perLane) {
    Latencies latencies = new Latencies(ids.size() * perLane);
    List<CompletableFuture<Void>> lanes = new ArrayList<>();
    for (CartId id : ids) {
      lanes.add(lane(carts, id, perLane, latencies));
    }
    CompletableFuture.allOf(lanes.toArray(CompletableFuture[]::new)).join();
    return latencies;
  }

  private static CompletableFuture<Void> lane(CartAsyncRepository carts, CartId id, int remaining, Latencies latencies) {
    if (remaining == 0) {
      return CompletableFuture.completedFuture(null);
    }
    long began = System.nanoTime();
    CompletableFuture<Versioned<Cart>> command = carts.transact(id, cart -> cart.add("SKU-1", 1, 100));
    return command.thenCompose(done -> {
      latencies.add(System.nanoTime() - began);
      return lane(carts, id, remaining - 1, latencies);
    });
  }
}
