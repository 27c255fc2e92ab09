package dev.esgen.bench;

import dev.esgen.bench.async.AsyncBenchmark;
import dev.esgen.bench.cache.StateCacheBenchmark;
import dev.esgen.bench.codec.MicroBenchmarks;
import dev.esgen.bench.compile.CompileTimeBenchmark;
import dev.esgen.bench.contention.ContentionBenchmark;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.CartVariants;
import dev.esgen.bench.e2e.EndToEndBenchmark;
import dev.esgen.bench.e2e.IndexWriteCost;
import dev.esgen.bench.feed.FeedBenchmark;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.memory.InMemoryStoreBenchmark;
import dev.esgen.bench.scale.ScaleBenchmark;
import dev.esgen.bench.scale.ScaleChart;
import dev.esgen.bench.tip.TipWriteChart;
import dev.esgen.bench.tip.TipWriteCost;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.test.DynamoDbLocal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs every benchmark in one go and writes {@code report.md}, {@code scale.png} and
 * {@code tip-write-cost.png} into a directory.
 *
 * <pre>
 * java -cp ... dev.esgen.bench.BenchSuite full target     # what the bench profile runs
 * </pre>
 *
 * <p>Benchmarks report; nothing here fails on a timing. DynamoDB Local is started on a free loopback
 * port for the run and stopped at the end.
 */
public final class BenchSuite {

  public static final String REPORT = "report.md";
  public static final String CHART = "scale.png";
  public static final String TIP_CHART = "tip-write-cost.png";

  private BenchSuite() {}

  /** Everything one run measured. */
  public record Results(
      Settings settings,
      List<MicroBenchmarks.Score> micro,
      List<InMemoryStoreBenchmark.Result> inMemory,
      List<EndToEndBenchmark.Result> endToEnd,
      List<IndexWriteCost.Row> indexWrites,
      List<ContentionBenchmark.Result> contention,
      StateCacheBenchmark.Results stateCache,
      List<ScaleBenchmark.Point> scale,
      List<TipWriteCost.Curve> tipWriteCost,
      List<FeedBenchmark.Result> feed,
      AsyncBenchmark.Results async,
      CompileTimeBenchmark.Result compile,
      String dynamoDbLocal,
      Duration took) {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2 || !(args[0].equals("full") || args[0].equals("smoke"))) {
      System.err.println("usage: BenchSuite full|smoke OUTPUT_DIRECTORY");
      System.exit(2);
    }
    Settings settings = args[0].equals("full") ? Settings.full() : Settings.smoke();
    Path out = Path.of(args[1]);
    run(settings, out);
    System.out.println("Wrote " + out.resolve(REPORT) + " and " + out.resolve(CHART));
  }

  /** Creates the tables every scenario writes, with the index slot the cart's {@code @Indexed} owner needs. */
  static void createTables(URI endpoint) {
    try (DynamoDbClient client = Clients.local(endpoint, Optional.empty())) {
      AggregateDefinition<Cart, CartId, CartEvent> carts = CartRepository.definition(EsgenJson.newObjectMapper());
      new TableProvisioner(client, StoreConfig.defaults()).createTablesIfMissing(carts, CartVariants.tip(carts));
    }
  }

  public static Results run(Settings settings, Path out) throws Exception {
    long start = System.nanoTime();
    Files.createDirectories(out);
    settings.progress().println("esgen benchmarks, " + settings.mode() + " mode");
    settings.progress().println("Codec and replay (JMH)...");
    List<MicroBenchmarks.Score> micro = new MicroBenchmarks(settings).run();
    settings.progress().println("In-memory store...");
    List<InMemoryStoreBenchmark.Result> inMemory = new InMemoryStoreBenchmark(settings).run();
    settings.progress().println("Compile time...");
    CompileTimeBenchmark.Result compile = new CompileTimeBenchmark(settings).run();
    List<EndToEndBenchmark.Result> endToEnd;
    List<IndexWriteCost.Row> indexWrites;
    List<ContentionBenchmark.Result> contention;
    StateCacheBenchmark.Results stateCache;
    List<ScaleBenchmark.Point> scale;
    List<TipWriteCost.Curve> tipWriteCost;
    List<FeedBenchmark.Result> feed;
    AsyncBenchmark.Results async;
    String dynamoDbLocal;
    settings.progress().println("Starting DynamoDB Local...");
    // In a JVM of its own, so that the server's allocation, garbage collection and JIT stay out of the
    // harness's measurements (they still share the machine's cores).
    try (DynamoDbLocal local = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM)) {
      dynamoDbLocal = local.version();
      createTables(local.endpoint());
      settings.progress().println("End to end...");
      endToEnd = new EndToEndBenchmark(settings, local.endpoint()).run();
      settings.progress().println("Index writes...");
      indexWrites = new IndexWriteCost(local.endpoint()).run();
      settings.progress().println("Contention...");
      contention = new ContentionBenchmark(settings, local.endpoint()).run();
      settings.progress().println("State cache...");
      stateCache = new StateCacheBenchmark(settings, local.endpoint()).run();
      settings.progress().println("Scale...");
      scale = new ScaleBenchmark(settings, local.endpoint()).run();
      settings.progress().println("Tip write cost...");
      tipWriteCost = new TipWriteCost(settings, local.endpoint()).run();
      settings.progress().println("Change feed...");
      feed = new FeedBenchmark(settings, local.endpoint()).run();
      settings.progress().println("Async...");
      async = new AsyncBenchmark(settings, local.endpoint()).run();
    }
    ScaleChart.write(scale, out.resolve(CHART));
    TipWriteChart.write(tipWriteCost, out.resolve(TIP_CHART));
    Results results = new Results(settings, micro, inMemory, endToEnd, indexWrites, contention, stateCache, scale,
        tipWriteCost, feed, async, compile, dynamoDbLocal, Duration.ofNanos(System.nanoTime() - start));
    Files.writeString(out.resolve(REPORT), new Report(results, Machine.current(), CHART).markdown(),
        StandardCharsets.UTF_8);
    return results;
  }
}
