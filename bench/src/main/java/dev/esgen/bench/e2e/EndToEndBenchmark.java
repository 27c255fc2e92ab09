package dev.esgen.bench.e2e;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.CartVariants;
import dev.esgen.bench.e2e.Operation.StreamShape;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Latencies;
import dev.esgen.bench.measure.Meter;
import dev.esgen.bench.measure.ThreadCounters;
import dev.esgen.bench.measure.Warmup;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Every end-to-end operation on every layout, esgen beside the floor, in one run against one DynamoDB
 * Local. The two sides take turns in rounds (esgen first in even rounds, the floor first in odd ones) so
 * that a slow spell of a shared machine hits both alike, and warm up the same way before. Stream
 * preparation is untimed and unmetered.
 */
public final class EndToEndBenchmark {

  private static final StoreConfig CONFIG = StoreConfig.defaults();

  static final String FIND_BY_UNIQUE = "loadByCode (@Unique): reservation, then the cart";
  static final String LIST_BY_INDEXED = "listByOwner (@Indexed), page of 20: index query, then the carts";
  static final String FIND_ALL = "findAll, 20 ids";

  /** The layouts measured, each with its own floor. */
  public static final List<Layout> LAYOUTS = List.of(
      new Layout("journal",
          (client, meter) -> {
            CartRepository carts = new CartRepository(DynamoDbEventStore.create(client, CONFIG));
            return new EsgenSide(carts, new EsgenSide.Lookups() {
              @Override
              public Optional<Cart> findByCode(String code) {
                return carts.findByCode(code);
              }

              @Override
              public Page<Cart> listByOwner(String owner, PageRequest page) {
                return carts.listByOwner(owner, page);
              }
            }, meter);
          },
          (client, meter) -> new BareSdkSide(client, meter, CONFIG.journalTable(), CONFIG.snapshotTable(),
              smallEventBody()),
          client -> new CartRepository(DynamoDbEventStore.create(client, CONFIG)),
          Map.of()),
      new Layout("tip",
          (client, meter) -> {
            CartVariants.Repository carts = tipRepository(client);
            return new EsgenSide(carts, new EsgenSide.Lookups() {
              @Override
              public Optional<Cart> findByCode(String code) {
                return carts.findByCode(code);
              }

              @Override
              public Page<Cart> listByOwner(String owner, PageRequest page) {
                return carts.listByOwner(owner, page);
              }
            }, meter);
          },
          (client, meter) -> new TipBareSdkSide(client, meter, CONFIG.tipTable(), CONFIG.snapshotTable(),
              smallEventBody()),
          EndToEndBenchmark::tipRepository,
          Map.of()));

  /** The operations measured on each layout, in report order. */
  public static final List<Operation> OPERATIONS = List.of(
      Operation.of("create", StreamShape.NEW, Side::create),
      Operation.of("append 1 event", StreamShape.FRESH, (side, stream) -> side.append(stream, 1)),
      Operation.of("append 5 events", StreamShape.FRESH, (side, stream) -> side.append(stream, 5)),
      Operation.of("load, snapshot current", StreamShape.SNAPSHOT_CURRENT, Side::load),
      Operation.of("load, 10 events after snapshot", StreamShape.TEN_AFTER_SNAPSHOT, Side::load),
      Operation.of("load, 100 events after snapshot", StreamShape.HUNDRED_AFTER_SNAPSHOT, Side::load),
      Operation.of("transact (load, decide, append 1)", StreamShape.FRESH, Side::transact),
      Operation.of(FIND_BY_UNIQUE, StreamShape.LOOKUP_GROUP, Side::loadByUnique),
      Operation.of(LIST_BY_INDEXED, StreamShape.LOOKUP_GROUP, Side::listByIndexed),
      Operation.of(FIND_ALL, StreamShape.LOOKUP_GROUP, Side::findAll));

  /** The cart in the tip layout, through the same definition as the generated repository's. */
  static CartVariants.Repository tipRepository(DynamoDbClient client) {
    DynamoDbEventStore store = DynamoDbEventStore.create(client, CONFIG);
    return new CartVariants.Repository(store, CartVariants.tip(CartRepository.definition(store.objectMapper())));
  }

  /** The calling thread's CPU time and allocated bytes (HotSpot's extension of the platform bean). */
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** Read-only calls cycle over this many prepared streams. */
  private static final int SHARED_STREAMS = 8;

  private final Settings settings;
  private final URI endpoint;
  private final Predicate<String> selected;
  private final AggregateDefinition<Cart, CartId, CartEvent> definition =
      CartRepository.definition(EsgenJson.newObjectMapper());

  public EndToEndBenchmark(Settings settings, URI endpoint) {
    this(settings, endpoint, row -> true);
  }

  /**
   * Measures only the rows {@code selected} accepts, each named {@code "layout, operation"} (e.g.
   * {@code "journal, create"}): to profile or re-measure a few operations without the whole suite.
   */
  public EndToEndBenchmark(Settings settings, URI endpoint, Predicate<String> selected) {
    this.settings = settings;
    this.endpoint = endpoint;
    this.selected = selected;
  }

  /**
   * What one side did over all measured calls of one operation.
   *
   * @param cpuP50Micros the median CPU time of the calling thread per call: the client's own work (esgen
   *     and the SDK), which moves far less than the latency with what else runs on a shared machine;
   *     DynamoDB Local, the JIT compilers and the GC run on other threads and are not in it
   * @param allocatedBytesP50 the median of the bytes the calling thread allocated per call, which does not
   *     depend on the machine's load at all
   * @param kernel what the kernel counted for the calling thread over all measured calls (user and system
   *     time, faults, switches, reads and writes), where it offers that (Linux)
   */
  public record SideResult(
      int calls, double requestsPerCall, double readUnitsPerCall, double writeUnitsPerCall,
      long unreportedCapacity, double callsPerSecond, double p50Millis, double p99Millis, double cpuP50Micros,
      long allocatedBytesP50, Optional<ThreadCounters> kernel) {}

  /** One row of the report: an operation on a layout, both sides, or why it is missing. */
  public record Result(
      String layout, String operation, Optional<SideResult> esgen, Optional<SideResult> floor,
      Optional<String> unavailable) {

    /** esgen's throughput over the floor's: 1.0 is as fast as the floor, 0.9 is 10% slower. */
    public double throughputRatio() {
      return esgen.orElseThrow().callsPerSecond() / floor.orElseThrow().callsPerSecond();
    }
  }

  public List<Result> run() {
    List<Result> results = new ArrayList<>();
    for (Layout layout : LAYOUTS) {
      Meter esgenMeter = new Meter();
      Meter floorMeter = new Meter();
      try (DynamoDbClient setupClient = Clients.local(endpoint, Optional.empty());
          DynamoDbClient esgenClient = Clients.local(endpoint, Optional.of(esgenMeter));
          DynamoDbClient floorClient = Clients.local(endpoint, Optional.of(floorMeter))) {
        EventSourcedRepository<Cart, CartId, CartEvent> setup = layout.setup().apply(setupClient);
        Side esgen = layout.esgen().apply(esgenClient, esgenMeter);
        Side floor = layout.floor().apply(floorClient, floorMeter);
        for (Operation operation : OPERATIONS) {
          if (!selected.test(layout.name() + ", " + operation.name())) {
            continue;
          }
          Optional<String> unavailable = layout.unavailable(operation);
          if (unavailable.isPresent()) {
            results.add(new Result(layout.name(), operation.name(), Optional.empty(), Optional.empty(), unavailable));
            continue;
          }
          settings.progress().printf("  end to end: %s, %s%n", layout.name(), operation.name());
          results.add(measure(layout, operation, setup, esgen, floor));
        }
      }
    }
    return results;
  }

  private Result measure(Layout layout, Operation operation, EventSourcedRepository<Cart, CartId, CartEvent> setup, Side esgen, Side floor) {
    Warmup.inTurns(settings.e2eWarmupCalls(), settings.e2eCallsPerRound(),
        calls -> block(operation, setup, esgen, calls, null), calls -> block(operation, setup, floor, calls, null));
    Tally esgenTally = new Tally();
    Tally floorTally = new Tally();
    for (int round = 0; round < settings.e2eRounds(); round++) {
      boolean esgenFirst = round % 2 == 0;
      block(operation, setup, esgenFirst ? esgen : floor, settings.e2eCallsPerRound(), esgenFirst ? esgenTally : floorTally);
      block(operation, setup, esgenFirst ? floor : esgen, settings.e2eCallsPerRound(), esgenFirst ? floorTally : esgenTally);
    }
    return new Result(layout.name(), operation.name(), Optional.of(esgenTally.result()),
        Optional.of(floorTally.result()), Optional.empty());
  }

  /** Prepares {@code calls} calls' streams, then times the calls; a null tally is a warm-up. */
  private void block(Operation operation, EventSourcedRepository<Cart, CartId, CartEvent> setup, Side side, int calls, Tally tally) {
    List<Fixture> streams = new ArrayList<>();
    int distinct = operation.stream().onePerCall() ? calls : Math.min(calls, SHARED_STREAMS);
    for (int i = 0; i < distinct; i++) {
      streams.add(prepare(setup, operation.stream()));
    }
    Meter.Reading before = side.meter().read();
    Optional<ThreadCounters> countersBefore = tally != null ? ThreadCounters.read() : Optional.empty();
    for (int i = 0; i < calls; i++) {
      Fixture stream = streams.get(i % streams.size());
      long allocatedStart = THREADS.getCurrentThreadAllocatedBytes();
      long cpuStart = THREADS.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      operation.call().accept(side, stream);
      long elapsed = System.nanoTime() - start;
      long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
      long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedStart;
      if (tally != null) {
        tally.latencies.add(elapsed);
        tally.cpu.add(cpu);
        tally.allocated.add(allocated);
        tally.nanos += elapsed;
      }
    }
    if (tally != null) {
      tally.usage.add(side.meter().read().minus(before));
      Optional<ThreadCounters> countersAfter = ThreadCounters.read();
      tally.kernel = tally.kernel.flatMap(sum -> countersAfter.flatMap(
          after -> countersBefore.map(start -> sum.plus(after.minus(start)))));
    }
  }

  private Fixture prepare(EventSourcedRepository<Cart, CartId, CartEvent> setup, StreamShape shape) {
    CartId id = CartId.random();
    String owner = shape == StreamShape.LOOKUP_GROUP ? "owner-" + UUID.randomUUID() : "benchmark-owner";
    CartOpened opened = CartOpened.of(id, owner);
    List<CartId> group = new ArrayList<>();
    Fixture fixture;
    try {
      Cart state = definition.replay().create(opened);
      Cart afterOne = definition.replay().apply(state, SmallEvent.EVENT);
      Cart afterFive = afterOne;
      for (int i = 1; i < 5; i++) {
        afterFive = definition.replay().apply(afterFive, SmallEvent.EVENT);
      }
      fixture = new Fixture(id, id.value().toString(), opened, definition.eventCodec().encode(opened),
          definition.snapshotCodec().encode(state), definition.snapshotCodec().encode(afterOne),
          definition.snapshotCodec().encode(afterFive), group);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (shape == StreamShape.NEW) {
      return fixture;
    }
    long version = setup.create(opened).version();
    if (shape == StreamShape.LOOKUP_GROUP) {
      group.add(id);
      while (group.size() < Fixture.LOOKUP_GROUP) {
        CartId other = CartId.random();
        setup.create(CartOpened.of(other, owner));
        group.add(other);
      }
    }
    int left = shape.eventsAfterSnapshot();
    while (left > 0) {
      // Half the transaction limit per append keeps well clear of the 100 actions.
      int batch = Math.min(50, left);
      version = setup.append(id, version, Collections.nCopies(batch, SmallEvent.EVENT)).version();
      left -= batch;
    }
    return fixture;
  }

  private static byte[] smallEventBody() {
    try {
      return CartRepository.definition(EsgenJson.newObjectMapper()).eventCodec().encode(SmallEvent.EVENT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final class Tally {
    final Latencies latencies = new Latencies(256);
    final Latencies cpu = new Latencies(256);
    final Latencies allocated = new Latencies(256);
    final List<Meter.Reading> usage = new ArrayList<>();
    long nanos;
    Optional<ThreadCounters> kernel = Optional.of(ThreadCounters.ZERO);

    SideResult result() {
      int calls = latencies.count();
      long requests = usage.stream().mapToLong(Meter.Reading::requests).sum();
      double read = usage.stream().mapToDouble(Meter.Reading::readUnits).sum();
      double write = usage.stream().mapToDouble(Meter.Reading::writeUnits).sum();
      long unreported = usage.stream().mapToLong(Meter.Reading::unreported).sum();
      return new SideResult(calls, (double) requests / calls, read / calls, write / calls, unreported,
          calls / (nanos / 1e9), latencies.percentileMillis(50), latencies.percentileMillis(99),
          cpu.percentileMillis(50) * 1000, allocated.percentile(50), kernel);
    }
  }
}
