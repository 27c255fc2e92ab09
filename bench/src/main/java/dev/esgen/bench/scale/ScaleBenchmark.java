package dev.esgen.bench.scale;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.ItemAdded;
import dev.esgen.bench.domain.SnapshotIntervalRepository;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Latencies;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.journal.JournalPosition;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * How a load grows with stream length, with esgen's default snapshot interval (100 events) and with no
 * snapshot after creation. Streams are written through the storage layout directly, carrying the stream
 * position from one append to the next, so building a 10,000-event stream costs no loads.
 */
public final class ScaleBenchmark {

  /** The two policies compared; "without" snapshots only at creation. */
  public static final List<Policy> POLICIES = List.of(
      new Policy("with snapshots (every 100)", SnapshotPolicy.every(100)),
      new Policy("without snapshots", SnapshotPolicy.every(Integer.MAX_VALUE)));

  /** A snapshot policy as the report names it. */
  public record Policy(String name, SnapshotPolicy policy) {}

  /** One load measurement: a policy at a stream length. */
  public record Point(
      String policy, int length, long eventsAfterSnapshot, int loads, double p50Millis, double p99Millis,
      double requestsPerLoad, double readUnitsPerLoad) {}

  private static final int EVENTS_PER_APPEND = 99;

  private final Settings settings;
  private final URI endpoint;

  public ScaleBenchmark(Settings settings, URI endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
  }

  public List<Point> run() {
    List<Point> points = new ArrayList<>();
    Meter meter = new Meter();
    try (DynamoDbClient setupClient = Clients.local(endpoint, Optional.empty());
        DynamoDbClient client = Clients.local(endpoint, Optional.of(meter))) {
      EventStore setupStore = DynamoDbEventStore.create(setupClient, StoreConfig.defaults());
      EventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults());
      for (Policy policy : POLICIES) {
        SnapshotIntervalRepository setup = new SnapshotIntervalRepository(setupStore, policy.policy());
        SnapshotIntervalRepository carts = new SnapshotIntervalRepository(store, policy.policy());
        for (int length : settings.scaleLengths()) {
          settings.progress().printf("  scale: %s, %,d events%n", policy.name(), length);
          points.add(measure(policy.name(), length, write(setupStore, setup, length), carts, meter));
        }
      }
    }
    return points;
  }

  private record Written(CartId id, long eventsAfterSnapshot) {}

  private static Written write(EventStore store, SnapshotIntervalRepository setup, int length) {
    AggregateDefinition<Cart, CartId, CartEvent> definition = setup.definition();
    CartId id = CartId.random();
    LoadedStream<Cart> stream = toStream(setup.create(CartOpened.of(id, "benchmark-owner")));
    int written = 1;
    while (written < length) {
      int batch = Math.min(EVENTS_PER_APPEND, length - written);
      List<CartEvent> events = new ArrayList<>(Collections.nCopies(batch, new ItemAdded("SKU-100001", 1, 1_999)));
      Cart state = stream.state();
      for (CartEvent event : events) {
        state = definition.replay().apply(state, event);
      }
      stream = StoreAccess.internals(store).orElseThrow().layoutFor(definition)
          .append(new AppendRequest<>(definition, id, Optional.of(stream), events, state));
      written += batch;
    }
    long snapshotSeqNr = ((JournalPosition) stream.position()).snapshotSeqNr();
    return new Written(id, stream.seqNr() - snapshotSeqNr);
  }

  /** The layout's view of a just-created stream: version 1, snapshot at its only event. */
  private static LoadedStream<Cart> toStream(dev.esgen.runtime.repository.Versioned<Cart> created) {
    return new LoadedStream<>(created.state(), created.version(), created.seqNr(), new JournalPosition(created.seqNr(), List.of()));
  }

  private Point measure(String policy, int length, Written stream, SnapshotIntervalRepository carts, Meter meter) {
    int loads = settings.loadsAt(length);
    carts.load(stream.id());
    Latencies latencies = new Latencies(loads);
    Meter.Reading before = meter.read();
    for (int i = 0; i < loads; i++) {
      long start = System.nanoTime();
      Cart cart = carts.load(stream.id());
      latencies.add(System.nanoTime() - start);
      if (cart.items() != length - 1) {
        throw new IllegalStateException("a " + length + "-event cart loaded with " + cart.items() + " items");
      }
    }
    Meter.Reading used = meter.read().minus(before);
    return new Point(policy, length, stream.eventsAfterSnapshot(), loads, latencies.percentileMillis(50),
        latencies.percentileMillis(99), (double) used.requests() / loads, used.readUnits() / loads);
  }
}
