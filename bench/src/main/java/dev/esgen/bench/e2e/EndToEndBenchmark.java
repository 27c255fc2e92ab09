package dev.esgen.bench.e2e;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.e2e.Operation.StreamShape;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Latencies;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.codec.EsgenJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Every end-to-end operation on every layout, esgen beside the floor, in one run against one DynamoDB
 * Local. The two sides take turns in rounds (esgen first in even rounds, the floor first in odd ones) so
 * that a slow spell of a shared machine hits both alike. Stream preparation is untimed and unmetered.
 */
public final class EndToEndBenchmark {

  private static final StoreConfig CONFIG = StoreConfig.defaults();

  /** The layouts measured; the tip layout joins here once it exists. */
  public static final List<Layout> LAYOUTS = List.of(
      new Layout("journal",
          (client, meter) -> new EsgenSide(new CartRepository(DynamoDbEventStore.create(client, CONFIG)), meter),
          (client, meter) -> new BareSdkSide(client, meter, CONFIG.journalTable(), CONFIG.snapshotTable(),
              smallEventBody()),
          client -> new CartRepository(DynamoDbEventStore.create(client, CONFIG))));

  /** The operations measured on each layout, in report order. */
  public static final List<Operation> OPERATIONS = List.of(
      Operation.of("create", StreamShape.NEW, Side::create),
      Operation.of("append 1 event", StreamShape.FRESH, (side, stream) -> side.append(stream, 1)),
      Operation.of("append 5 events", StreamShape.FRESH, (side, stream) -> side.append(stream, 5)),
      Operation.of("load, snapshot current", StreamShape.SNAPSHOT_CURRENT, Side::load),
      Operation.of("load, 10 events after snapshot", StreamShape.TEN_AFTER_SNAPSHOT, Side::load),
      Operation.of("load, 100 events after snapshot", StreamShape.HUNDRED_AFTER_SNAPSHOT, Side::load),
      Operation.of("transact (load, decide, append 1)", StreamShape.FRESH, Side::transact),
      Operation.notYetAvailable("lookup by index column",
          "index columns and their lookups are being built (branch index); not measured yet"));

  /** Read-only calls cycle over this many prepared streams. */
  private static final int SHARED_STREAMS = 8;

  private final Settings settings;
  private final URI endpoint;
  private final AggregateDefinition<Cart, CartId, CartEvent> definition =
      CartRepository.definition(EsgenJson.newObjectMapper());

  public EndToEndBenchmark(Settings settings, URI endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
  }

  /** What one side did over all measured calls of one operation. */
  public record SideResult(
      int calls, double requestsPerCall, double readUnitsPerCall, double writeUnitsPerCall,
      long unreportedCapacity, double callsPerSecond, double p50Millis, double p99Millis) {}

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
        CartRepository setup = layout.setup().apply(setupClient);
        Side esgen = layout.esgen().apply(esgenClient, esgenMeter);
        Side floor = layout.floor().apply(floorClient, floorMeter);
        for (Operation operation : OPERATIONS) {
          if (operation.unavailable().isPresent()) {
            results.add(new Result(layout.name(), operation.name(), Optional.empty(), Optional.empty(),
                operation.unavailable()));
            continue;
          }
          System.out.printf("  end to end: %s, %s%n", layout.name(), operation.name());
          results.add(measure(layout, operation, setup, esgen, floor));
        }
      }
    }
    return results;
  }

  private Result measure(Layout layout, Operation operation, CartRepository setup, Side esgen, Side floor) {
    block(operation, setup, esgen, settings.e2eWarmupCalls(), null);
    block(operation, setup, floor, settings.e2eWarmupCalls(), null);
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
  private void block(Operation operation, CartRepository setup, Side side, int calls, Tally tally) {
    List<Fixture> streams = new ArrayList<>();
    int distinct = operation.stream().onePerCall() ? calls : Math.min(calls, SHARED_STREAMS);
    for (int i = 0; i < distinct; i++) {
      streams.add(prepare(setup, operation.stream()));
    }
    Meter.Reading before = side.meter().read();
    for (int i = 0; i < calls; i++) {
      Fixture stream = streams.get(i % streams.size());
      long start = System.nanoTime();
      operation.call().accept(side, stream);
      long elapsed = System.nanoTime() - start;
      if (tally != null) {
        tally.latencies.add(elapsed);
        tally.nanos += elapsed;
      }
    }
    if (tally != null) {
      tally.usage.add(side.meter().read().minus(before));
    }
  }

  private Fixture prepare(CartRepository setup, StreamShape shape) {
    CartId id = CartId.random();
    CartOpened opened = new CartOpened(id, "benchmark-owner", Instant.now());
    Fixture fixture;
    try {
      fixture = new Fixture(id, id.value().toString(), opened, definition.eventCodec().encode(opened),
          definition.snapshotCodec().encode(definition.replay().create(opened)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (shape == StreamShape.NEW) {
      return fixture;
    }
    long version = setup.create(opened).version();
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
    final List<Meter.Reading> usage = new ArrayList<>();
    long nanos;

    SideResult result() {
      int calls = latencies.count();
      long requests = usage.stream().mapToLong(Meter.Reading::requests).sum();
      double read = usage.stream().mapToDouble(Meter.Reading::readUnits).sum();
      double write = usage.stream().mapToDouble(Meter.Reading::writeUnits).sum();
      long unreported = usage.stream().mapToLong(Meter.Reading::unreported).sum();
      return new SideResult(calls, (double) requests / calls, read / calls, write / calls, unreported,
          calls / (nanos / 1e9), latencies.percentileMillis(50), latencies.percentileMillis(99));
    }
  }
}
