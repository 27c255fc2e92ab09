package dev.esgen.bench.cache;

import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.CartVariants;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * One side of {@link StateCacheBenchmark} in a process of its own: {@code transact} by the only writer of 8
 * streams, one thread, with or without the state cache, on tables of its own in a DynamoDB Local that is
 * already running. It compares esgen of one commit with esgen of another, which one JVM cannot load side by
 * side: the file uses only what the bench offered when the state cache came in (at 82cce7e, the code the
 * cache's target was set against), finding the two things that came later by reflection, so that the same
 * file compiles against that bench and this one. Run the sides in turns against one server:
 *
 * <pre>
 * java -cp ... software.amazon.dynamodb.services.local.main.ServerRunner -inMemory -port 8765 -disableTelemetry
 * java -cp OLD-BENCH... -Dendpoint=http://127.0.0.1:8765 dev.esgen.bench.cache.SingleWriterRun tip false 1000 6 100
 * java -cp THIS-BENCH... -Dendpoint=http://127.0.0.1:8765 dev.esgen.bench.cache.SingleWriterRun tip true 1000 6 100
 * </pre>
 *
 * <p>Arguments: layout ({@code journal} or {@code tip}), state cache ({@code true} or {@code false}),
 * untimed commands, rounds, commands per round. It prints one line: commands/s over the sum of the
 * latencies, the median latency, requests per command and the load average.
 */
public final class SingleWriterRun {

  private static final int STREAMS = 8;

  private SingleWriterRun() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: SingleWriterRun journal|tip true|false UNTIMED ROUNDS PER-ROUND (-Dendpoint=URL)");
      System.exit(2);
    }
    String layout = args[0];
    boolean cached = Boolean.parseBoolean(args[1]);
    int untimed = Integer.parseInt(args[2]);
    int measured = Integer.parseInt(args[3]) * Integer.parseInt(args[4]);
    AtomicLong requests = new AtomicLong();
    ExecutionInterceptor counter = new ExecutionInterceptor() {
      @Override
      public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        requests.incrementAndGet();
      }
    };
    try (DynamoDbClient client = DynamoDbClient.builder()
        .endpointOverride(URI.create(System.getProperty("endpoint", "http://127.0.0.1:8765")))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(Apache5HttpClient.builder())
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()).addExecutionInterceptor(counter))
        .build()) {
      // Tables of this run's own, so that runs of different commits never share one.
      String suffix = Long.toString(System.nanoTime(), 36);
      StoreConfig tables = StoreConfig.defaults()
          .withJournalTable("journal-" + suffix).withSnapshotTable("snapshot-" + suffix).withTipTable("tip-" + suffix);
      DynamoDbEventStore store = DynamoDbEventStore.create(client, cached ? withStateCache(tables) : tables);
      AggregateDefinition<Cart, CartId, CartEvent> journal = CartRepository.definition(store.objectMapper());
      AggregateDefinition<Cart, CartId, CartEvent> tip = CartVariants.tip(journal);
      new TableProvisioner(client, tables).createTablesIfMissing(journal, tip);
      EventSourcedRepository<Cart, CartId, CartEvent> carts =
          layout.equals("tip") ? repository(store, tip) : new CartRepository(store);
      List<CartId> streams = new ArrayList<>();
      for (int i = 0; i < STREAMS; i++) {
        CartId id = CartId.random();
        carts.create(CartOpened.of(id, "state-cache-benchmark"));
        streams.add(id);
      }
      int sent = 0;
      for (int i = 0; i < untimed; i++) {
        carts.transact(streams.get(sent++ % STREAMS), cart -> cart.add("SKU-1", 1, 100));
      }
      long before = requests.get();
      long[] latencies = new long[measured];
      long total = 0;
      for (int i = 0; i < measured; i++) {
        long start = System.nanoTime();
        carts.transact(streams.get(sent++ % STREAMS), cart -> cart.add("SKU-1", 1, 100));
        latencies[i] = System.nanoTime() - start;
        total += latencies[i];
      }
      Arrays.sort(latencies);
      System.out.printf(Locale.ROOT, "%s, state cache %s: %.1f commands/s, p50 %.2f ms, %.2f requests per command,"
              + " load average %s%n", layout, cached ? "on" : "off", measured / (total / 1e9),
          latencies[measured / 2] / 1e6, (requests.get() - before) / (double) measured,
          Files.readString(Path.of("/proc/loadavg")).trim());
    }
  }

  /** {@code config} with a cache of 1,000 streams for 5 minutes, as in {@link StateCacheBenchmark}. */
  private static StoreConfig withStateCache(StoreConfig config) throws ReflectiveOperationException {
    Class<?> policy = Class.forName("dev.esgen.runtime.config.StateCachePolicy");
    Object thousandForFiveMinutes = policy.getMethod("of", long.class, Duration.class)
        .invoke(null, 1_000L, Duration.ofMinutes(5));
    return (StoreConfig) StoreConfig.class.getMethod("withStateCache", policy).invoke(config, thousandForFiveMinutes);
  }

  /** The generated repository over {@code definition}: {@code withDefinition} now, a bench class before it. */
  @SuppressWarnings("unchecked")
  private static EventSourcedRepository<Cart, CartId, CartEvent> repository(EventStore store,
      AggregateDefinition<Cart, CartId, CartEvent> definition) throws ReflectiveOperationException {
    try {
      return (EventSourcedRepository<Cart, CartId, CartEvent>) CartRepository.class
          .getMethod("withDefinition", EventStore.class, AggregateDefinition.class).invoke(null, store, definition);
    } catch (NoSuchMethodException e) {
      return (EventSourcedRepository<Cart, CartId, CartEvent>) Class.forName(CartVariants.class.getName() + "$Repository")
          .getConstructors()[0].newInstance(store, definition);
    }
  }
}
