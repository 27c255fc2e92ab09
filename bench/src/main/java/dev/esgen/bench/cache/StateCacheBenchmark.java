package dev.esgen.bench.cache;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.CartVariants;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Latencies;
import dev.esgen.bench.measure.Meter;
import dev.esgen.bench.measure.Warmup;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code transact} by the only writer of its streams, one thread, on a store with the state cache and on
 * one without, per layout: with the cache a command decides on the state the store last wrote and sends
 * only its append; without, it loads first. The two sides take turns in rounds (each starting one round),
 * on {@value #STREAMS} streams each, created before the clock starts. Then, in the same turns, strongly
 * consistent {@code load}s of those streams: with the cache the store still reads the head, but folds on
 * from the state it remembers instead of reading the events after the snapshot.
 */
public final class StateCacheBenchmark {

  /** Streams per side, written in turn so that each command is the only writer of its stream. */
  public static final int STREAMS = 8;

  private final Settings settings;
  private final URI endpoint;

  public StateCacheBenchmark(Settings settings, URI endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
  }

  /**
   * One side's figures.
   *
   * @param commandsPerSecond commands over the sum of their latencies
   * @param applied whether every stream ended at the version its commands lead to
   * @param loads the strongly consistent loads measured after the commands
   * @param readUnitsPerLoad read capacity units per load, as DynamoDB Local reported them
   */
  public record Result(LayoutKind layout, boolean cached, int commands, double commandsPerSecond, double p50Millis,
      double requestsPerCommand, boolean applied, int loads, double loadsPerSecond, double loadP50Millis,
      double requestsPerLoad, double readUnitsPerLoad) {}

  /** Both sides of both layouts. */
  public record Results(List<Result> sides) {

    public Result of(LayoutKind layout, boolean cached) {
      return sides.stream().filter(r -> r.layout() == layout && r.cached() == cached).findFirst().orElseThrow();
    }

    /** Commands/s with the cache over those without, on {@code layout}: the target is at least 1.8. */
    public double speedUp(LayoutKind layout) {
      return of(layout, true).commandsPerSecond() / of(layout, false).commandsPerSecond();
    }

    /** Loads/s with the cache over those without, on {@code layout}. */
    public double loadSpeedUp(LayoutKind layout) {
      return of(layout, true).loadsPerSecond() / of(layout, false).loadsPerSecond();
    }
  }

  public Results run() {
    List<Result> results = new ArrayList<>();
    for (LayoutKind layout : LayoutKind.values()) {
      results.addAll(run(layout));
    }
    return new Results(results);
  }

  private List<Result> run(LayoutKind layout) {
    settings.progress().printf("  state cache: %s%n", layout.name().toLowerCase(Locale.ROOT));
    Meter plainMeter = new Meter();
    Meter cachedMeter = new Meter();
    try (DynamoDbClient plainClient = Clients.local(endpoint, Optional.of(plainMeter));
        DynamoDbClient cachedClient = Clients.local(endpoint, Optional.of(cachedMeter))) {
      Side plain = new Side(layout, false, plainMeter, DynamoDbEventStore.create(plainClient, StoreConfig.defaults()));
      Side cached = new Side(layout, true, cachedMeter, DynamoDbEventStore.create(cachedClient,
          StoreConfig.defaults().withStateCache(StateCachePolicy.of(1_000, Duration.ofMinutes(5)))));
      // Untimed: both sides' code paths warm, and the cached side's streams in its cache.
      int perRound = settings.e2eCallsPerRound();
      Warmup.inTurns(settings.e2eWarmupCalls(), perRound, cached::untimed, plain::untimed);
      inTurns(cached, plain, side -> side.measured(perRound));
      Warmup.inTurns(settings.e2eWarmupCalls(), perRound, cached::loadsUntimed, plain::loadsUntimed);
      inTurns(cached, plain, side -> side.measuredLoads(perRound));
      return List.of(plain.result(), cached.result());
    }
  }

  /** {@code round} on each side per round, the sides taking turns to go first. */
  private void inTurns(Side cached, Side plain, Consumer<Side> round) {
    for (int i = 0; i < settings.e2eRounds(); i++) {
      round.accept(i % 2 == 0 ? cached : plain);
      round.accept(i % 2 == 0 ? plain : cached);
    }
  }

  /** One store's repository, its streams and what its measured commands and loads took. */
  private final class Side {
    private final LayoutKind layout;
    private final boolean cached;
    private final Meter meter;
    private final CartRepository carts;
    private final List<CartId> streams = new ArrayList<>();
    private final Latencies latencies;
    private final Latencies loadLatencies;
    private long nanos;
    private long requests;
    private int commands;
    private int sent;
    private long loadNanos;
    private long loadRequests;
    private double loadReadUnits;
    private int loads;

    Side(LayoutKind layout, boolean cached, Meter meter, DynamoDbEventStore store) {
      this.layout = layout;
      this.cached = cached;
      this.meter = meter;
      this.carts = layout == LayoutKind.TIP
          ? CartRepository.withDefinition(store, CartVariants.tip(CartRepository.definition(store.objectMapper())))
          : new CartRepository(store);
      this.latencies = new Latencies(settings.e2eCallsPerRound() * settings.e2eRounds());
      this.loadLatencies = new Latencies(settings.e2eCallsPerRound() * settings.e2eRounds());
      for (int i = 0; i < STREAMS; i++) {
        CartId id = CartId.random();
        carts.create(CartOpened.of(id, "state-cache-benchmark"));
        streams.add(id);
      }
    }

    void measured(int calls) {
      Meter.Reading before = meter.read();
      for (int i = 0; i < calls; i++) {
        long start = System.nanoTime();
        transactNext();
        long elapsed = System.nanoTime() - start;
        latencies.add(elapsed);
        nanos += elapsed;
      }
      requests += meter.read().minus(before).requests();
      commands += calls;
    }

    void untimed(int calls) {
      for (int i = 0; i < calls; i++) {
        transactNext();
      }
    }

    void measuredLoads(int calls) {
      Meter.Reading before = meter.read();
      for (int i = 0; i < calls; i++) {
        long start = System.nanoTime();
        carts.load(streams.get(i % STREAMS));
        long elapsed = System.nanoTime() - start;
        loadLatencies.add(elapsed);
        loadNanos += elapsed;
      }
      Meter.Reading read = meter.read().minus(before);
      loadRequests += read.requests();
      loadReadUnits += read.readUnits();
      loads += calls;
    }

    void loadsUntimed(int calls) {
      for (int i = 0; i < calls; i++) {
        carts.load(streams.get(i % STREAMS));
      }
    }

    private void transactNext() {
      carts.transact(streams.get(sent++ % STREAMS), cart -> cart.add("SKU-1", 1, 100));
    }

    Result result() {
      boolean applied = true;
      for (int i = 0; i < STREAMS; i++) {
        long commandsOnStream = sent / STREAMS + (i < sent % STREAMS ? 1 : 0);
        applied &= carts.loadVersioned(streams.get(i)).version() == 1 + commandsOnStream;
      }
      return new Result(layout, cached, commands, commands / (nanos / 1e9), latencies.percentileMillis(50),
          (double) requests / commands, applied, loads, loads / (loadNanos / 1e9), loadLatencies.percentileMillis(50),
          (double) loadRequests / loads, loadReadUnits / loads);
    }
  }
}
