package dev.esgen.bench;

import dev.esgen.bench.async.AsyncBenchmark;
import dev.esgen.bench.cache.StateCacheBenchmark;
import dev.esgen.bench.codec.CodecBenchmark;
import dev.esgen.bench.codec.MicroBenchmarks.Score;
import dev.esgen.bench.codec.ReplayBenchmark;
import dev.esgen.bench.compile.CompileTimeBenchmark;
import dev.esgen.bench.contention.ContentionBenchmark;
import dev.esgen.bench.e2e.EndToEndBenchmark.SideResult;
import dev.esgen.bench.e2e.EndToEndBenchmark;
import dev.esgen.bench.e2e.IndexWriteCost;
import dev.esgen.bench.feed.FeedBenchmark;
import dev.esgen.bench.memory.InMemoryStoreBenchmark;
import dev.esgen.bench.scale.ScaleBenchmark;
import dev.esgen.bench.tip.TipWriteCost;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.RetryPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Renders one run's {@link BenchSuite.Results} as the Markdown report. */
final class Report {

  /** The section headings, in order; the smoke test checks that each is written. */
  static final List<String> SECTIONS = List.of(
      "## Summary", "## End to end", "## Index writes", "## Codec", "## Replay", "## In-memory store", "## Contention",
      "## State cache", "## Async", "## Compile time", "## Scale", "## Tip write cost", "## Change feed", "## How it is measured");

  private final BenchSuite.Results results;
  private final Machine machine;
  private final String chart;
  private final StringBuilder md = new StringBuilder();

  Report(BenchSuite.Results results, Machine machine, String chart) {
    this.results = results;
    this.machine = machine;
    this.chart = chart;
  }

  String markdown() {
    md.append("# esgen benchmark report\n\n");
    line("Mode: **%s**. Run on %s: %d processors, %,d MB memory, %s, %s, DynamoDB Local %s in a JVM of its own."
        + " The suite took %d min %d s.",
        results.settings().mode(), machine.date(), machine.processors(), machine.memoryMegabytes(), machine.jdk(),
        machine.os(), results.dynamoDbLocal(), results.took().toMinutes(), results.took().toSecondsPart());
    line("Load average when the report was written (1, 5, 15 min): %s on %d processors; anything above the"
        + " processor count means other work shared the machine.", machine.loadAverage(), machine.processors());
    line("Re-run: `mvn -pl bench -am package -DskipTests -Pbench` (writes `bench/target/report.md` and"
        + " `bench/target/%s`). Figures from a shared machine move by several percent between runs.", chart);
    summary();
    endToEnd();
    indexWrites();
    codec();
    replay();
    inMemory();
    contention();
    stateCache();
    async();
    compile();
    scale();
    tipWriteCost();
    feed();
    method();
    return md.toString();
  }

  private void summary() {
    md.append("\n## Summary\n\n");
    md.append("| target | result |\n|---|---|\n");
    for (EndToEndBenchmark.Result r : results.endToEnd()) {
      if (r.unavailable().isPresent()) {
        row("%s, %s: no request beyond the floor, within 10%% of its throughput", "not yet available",
            r.layout(), r.operation());
        continue;
      }
      SideResult e = r.esgen().orElseThrow();
      SideResult f = r.floor().orElseThrow();
      double extra = e.requestsPerCall() - f.requestsPerCall();
      row("%s, %s: no request beyond the floor, within 10%% of its throughput",
          "%s requests (floor %s); throughput esgen/floor %.2f %s; median latency esgen/floor %.2f",
          r.layout(), r.operation(), num(e.requestsPerCall()), num(f.requestsPerCall()), r.throughputRatio(),
          extra <= 0 && r.throughputRatio() >= 0.9 ? "(met)" : "(**not met**)", e.p50Millis() / f.p50Millis());
    }
    for (IndexWriteCost.Row noChange : results.indexWrites()) {
      if (noChange.append().equals(IndexWriteCost.NO_CHANGE)) {
        row("%s, append changing no index value: no global secondary index write",
            "%s GSI WCU over 3 appends (%s) %s", noChange.layout(), num(noChange.indexUnitsAllRuns()),
            units(noChange.indexUnits()), noChange.indexUnitsAllRuns() == 0 ? "(met)" : "(**not met**)");
      }
    }
    for (String size : List.of("small", "2KB")) {
      for (String direction : List.of("encode", "decode")) {
        double ratio = codecRatio(direction, size);
        row("codec, %s %s: at least as fast as hand-written Jackson polymorphism",
            "generated/hand-written %.2f %s", direction, size, ratio, ratio >= 1 ? "(met)" : "(**not met**)");
      }
    }
    for (ContentionBenchmark.Result c : results.contention()) {
      row("contention, %s: no command starves", "max %d attempts, max latency %.0f ms, %d of %d commands gave up %s",
          c.name(), c.maxAttempts(), c.maxMillis(), c.failed(), c.commands() + c.failed(),
          c.failed() == 0 ? "(met)" : "(**not met**)");
    }
    for (LayoutKind layout : LayoutKind.values()) {
      StateCacheBenchmark.Result cached = results.stateCache().of(layout, true);
      double speedUp = results.stateCache().speedUp(layout);
      row("%s, `transact` by the stream's only writer with the state cache: 1 request per command, at least 1.8×"
          + " the commands/s without it", "%s requests per command (without the cache %s), %.2f× the commands/s %s",
          layout.name().toLowerCase(Locale.ROOT), num(cached.requestsPerCommand()),
          num(results.stateCache().of(layout, false).requestsPerCommand()), speedUp,
          cached.requestsPerCommand() == 1 && speedUp >= 1.8 ? "(met)" : "(**not met**)");
    }
    for (InMemoryStoreBenchmark.Result r : results.inMemory()) {
      row("in-memory store, %s, one thread: at least 100,000 appends/s", "%,.0f per CPU second, %,.0f per wall"
          + " second %s", r.operation(), r.perCpuSecond(), r.perWallSecond(),
          r.perCpuSecond() >= 100_000 ? "(met)" : "(**not met**)");
    }
    var compile = results.compile();
    double fresh = compile.freshProcessRatio(CompileTimeBenchmark.Side.WITH);
    row("compile time with the processor: at most 1.8× javac without it", "warm %.2f× (CPU %.2f×), fresh process"
        + " %.2f× (%d aggregates × %d events; a processor writing one empty class per aggregate: warm %.2f×, fresh"
        + " process %.2f×) %s",
        compile.overhead(), compile.ratio(CompileTimeBenchmark.Side.WITH, true), fresh,
        compile.aggregates(), compile.eventsPerAggregate(),
        compile.ratio(CompileTimeBenchmark.Side.EMPTY_CLASS_PROCESSOR, false),
        compile.freshProcessRatio(CompileTimeBenchmark.Side.EMPTY_CLASS_PROCESSOR),
        compile.overhead() <= 1.8 && fresh <= 1.8 ? "(met)"
            : compile.overhead() <= 1.8 || fresh <= 1.8 ? "(met " + (fresh <= 1.8 ? "fresh" : "warm") + " only)"
            : "(**not met**)");
  }

  private void endToEnd() {
    md.append("\n## End to end\n\n");
    line("Against DynamoDB Local on loopback, one thread, per call. *floor* sends the same requests (same items,"
        + " same sizes) with the bare AWS SDK and does nothing else. Ratio = esgen throughput / floor throughput."
        + " Calls measured per side: %d (%d rounds of %d, after %d warm-up calls).",
        results.settings().e2eRounds() * results.settings().e2eCallsPerRound(), results.settings().e2eRounds(),
        results.settings().e2eCallsPerRound(), results.settings().e2eWarmupCalls());
    md.append("| layout | operation | requests esgen / floor | RCU esgen / floor | WCU esgen / floor"
        + " | calls/s esgen / floor | esgen/floor | p50 ms esgen / floor | p99 ms esgen / floor |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (EndToEndBenchmark.Result r : results.endToEnd()) {
      if (r.unavailable().isPresent()) {
        row("%s | %s", "not yet available: %s | | | | | | |", r.layout(), r.operation(), r.unavailable().get());
        continue;
      }
      SideResult e = r.esgen().orElseThrow();
      SideResult f = r.floor().orElseThrow();
      row("%s | %s", "%s / %s | %s / %s | %s / %s | %.0f / %.0f | **%.2f** | %.2f / %.2f | %.2f / %.2f",
          r.layout(), r.operation(), num(e.requestsPerCall()), num(f.requestsPerCall()),
          num(e.readUnitsPerCall()), num(f.readUnitsPerCall()), num(e.writeUnitsPerCall()), num(f.writeUnitsPerCall()),
          e.callsPerSecond(), f.callsPerSecond(), r.throughputRatio(), e.p50Millis(), f.p50Millis(),
          e.p99Millis(), f.p99Millis());
    }
    long unreported = results.endToEnd().stream()
        .flatMap(r -> java.util.stream.Stream.of(r.esgen(), r.floor()))
        .flatMap(Optional::stream).mapToLong(SideResult::unreportedCapacity).sum();
    line("\nResponses without consumed capacity: %d.", unreported);
  }

  private void indexWrites() {
    md.append("\n## Index writes\n\n");
    line("What one append writes, per table and per global secondary index, as DynamoDB Local reports it with"
        + " `ReturnConsumedCapacity=INDEXES` (the load before the append not counted). The cart has one"
        + " `@Indexed` column (`owner`, slot 0: `esgen-index-0`, KEYS_ONLY) and one `@Unique` column (`code`, a"
        + " reservation item in the snapshot table, for both layouts); on the tip layout the slot index is on the tip"
        + " table, which also has the listing index `esgen-tip-listing` (written at creation only). Fresh carts, no"
        + " snapshot due. DynamoDB Local reports a"
        + " transaction's table units as 2.0 per table when its items are under 1 KB, whatever their number"
        + " (see *How it is measured*).");
    md.append("| layout | append | requests | table WCU | GSI WCU |\n|---|---|---|---|---|\n");
    for (IndexWriteCost.Row r : results.indexWrites()) {
      row("%s | %s", "%d | %s | %s", r.layout(), r.append(), r.requests(), units(r.tableUnits()),
          units(r.indexUnits()));
    }
  }

  private static String units(java.util.Map<String, Double> units) {
    if (units.isEmpty()) {
      return "none reported";
    }
    List<String> parts = new java.util.ArrayList<>();
    units.forEach((name, value) -> parts.add("`" + name + "` " + String.format(Locale.ROOT, "%.1f", value)));
    return String.join(", ", parts);
  }

  private void codec() {
    md.append("\n## Codec\n\n");
    line("JMH, throughput in operations per microsecond (± 99.9%% confidence half-width). *generated*: the"
        + " processor's `CartRepository.EventCodec` (type name beside the body, one `ObjectReader`/`ObjectWriter` per"
        + " event type). *hand-written*: one `ObjectMapper`, `@JsonTypeInfo`/`@JsonSubTypes` on the sealed"
        + " interface, `writeValueAsBytes` / `readValue(bytes, Root.class)`. Both with esgen's mapper settings.");
    md.append("| event | body bytes generated / hand-written | operation | generated | hand-written | generated/hand-written |\n");
    md.append("|---|---|---|---|---|---|\n");
    for (String size : List.of("small", "2KB")) {
      int[] bytes = bodySizes(size);
      for (String direction : List.of("encode", "decode")) {
        Score g = score(direction + "Generated", size);
        Score h = score(direction + "HandWritten", size);
        row("%s | %d / %d", "%s | %s | %s | **%.2f**", size, bytes[0], bytes[1], direction, withError(g),
            withError(h), g.score() / h.score());
      }
    }
  }

  private void replay() {
    md.append("\n## Replay\n\n");
    Score replay = score("replay", "");
    line("Folding %,d stored events into a cart (generated codec decode + generated replay dispatch), JMH:"
        + " **%,.0f events/s** (± %,.0f).", ReplayBenchmark.EVENTS, replay.score(), replay.error());
  }

  private void inMemory() {
    md.append("\n## In-memory store\n\n");
    line("esgen-testkit's `InMemoryEventStore` under the generated cart repository, one thread: each append encodes"
        + " its event with the generated codec, checks DynamoDB's limits and the version under the store's lock. A"
        + " fresh store per round, a fresh cart every %d appends (its creation counted); %,d appends per round,"
        + " %d measured rounds after one untimed one. *per CPU second* counts the appending thread's CPU time"
        + " only, and is the figure to compare on a shared machine; *per wall second* counts the other work too.",
        InMemoryStoreBenchmark.CART_LENGTH, results.settings().memoryAppendsPerRound(),
        results.settings().memoryRounds());
    md.append("| operation | appends per CPU second | appends per wall second |\n|---|---|---|\n");
    for (InMemoryStoreBenchmark.Result r : results.inMemory()) {
      row("%s", "**%,.0f** | %,.0f", r.operation(), r.perCpuSecond(), r.perWallSecond());
    }
  }

  private void contention() {
    md.append("\n## Contention\n\n");
    RetryPolicy retries = RetryPolicy.defaults();
    line("%d threads, %d `transact` commands each, store defaults (%d attempts, jittered backoff from %d ms"
        + " capped at %d ms, snapshot every 100 events). A conflict is an attempt that lost to another writer;"
        + " a command gives up (starves) after its last attempt. Cases marked *state cache* run on a store with"
        + " `StateCachePolicy.of(1000, 5 min)`: `transact` decides on the state the store last read or wrote.",
        ContentionBenchmark.THREADS,
        results.settings().contentionCommandsPerThread(), retries.maxAttempts(), retries.baseDelay().toMillis(),
        retries.maxDelay().toMillis());
    line("*immediate retries* is a loop around the repository's `loadVersioned` and `append` at the loaded"
        + " version that starts again at once after a conflict (at most %d attempts): a peer's immediate-retry"
        + " loop. *four stores* gives each thread a store of its own, as four processes would have.",
        ContentionBenchmark.IMMEDIATE_MAX_ATTEMPTS);
    md.append("| case | commands/s | conflicts | attempts p99 | attempts max | latency p50 ms | latency p99 ms"
        + " | latency max ms | gave up | requests per command |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (ContentionBenchmark.Result c : results.contention()) {
      row("%s", "%.0f | %d | %.0f | %d | %.1f | %.1f | %.1f | %d | %s", c.name(), c.commandsPerSecond(),
          c.conflicts(), c.p99Attempts(), c.maxAttempts(), c.p50Millis(), c.p99Millis(), c.maxMillis(), c.failed(),
          num(c.requestsPerCommand()));
    }
  }

  private void stateCache() {
    md.append("\n## State cache\n\n");
    line("`transact` by the only writer of its streams, one thread, %d streams per side, on a store with"
        + " `StateCachePolicy.of(1000, 5 min)` and on one without; the sides take turns in %d rounds of %d"
        + " commands after %d untimed ones. With the cache a command decides on the state the store last wrote"
        + " and sends its append alone; without it, it loads the stream first (the journal's load is a `GetItem`"
        + " of the head row and a `Query` of the events after its snapshot, the tip's one `GetItem`).",
        StateCacheBenchmark.STREAMS, results.settings().e2eRounds(), results.settings().e2eCallsPerRound(),
        results.settings().e2eWarmupCalls());
    md.append("| layout | state cache | commands/s | p50 ms | requests per command | all applied |\n");
    md.append("|---|---|---|---|---|---|\n");
    for (StateCacheBenchmark.Result r : results.stateCache().sides()) {
      row("%s", "%s | %.0f | %.2f | %s | %s", r.layout().name().toLowerCase(Locale.ROOT), r.cached() ? "on" : "off",
          r.commandsPerSecond(), r.p50Millis(), num(r.requestsPerCommand()), r.applied() ? "yes" : "**no**");
    }
    line("\nWith the cache over without: journal **%.2f×**, tip **%.2f×** the commands/s.",
        results.stateCache().speedUp(LayoutKind.JOURNAL), results.stateCache().speedUp(LayoutKind.TIP));
    line("\nThen, taking turns as above, `load(id)` (strongly consistent) of the same streams, which the"
        + " cached side wrote last: it still reads the head, and folds on from the state it remembers instead of"
        + " decoding the snapshot and reading the events after it.\n");
    md.append("| layout | state cache | loads/s | p50 ms | requests per load | RCU per load |\n");
    md.append("|---|---|---|---|---|---|\n");
    for (StateCacheBenchmark.Result r : results.stateCache().sides()) {
      row("%s", "%s | %.0f | %.2f | %s | %s", r.layout().name().toLowerCase(Locale.ROOT), r.cached() ? "on" : "off",
          r.loadsPerSecond(), r.loadP50Millis(), num(r.requestsPerLoad()), num(r.readUnitsPerLoad()));
    }
    line("\nWith the cache over without: journal **%.2f×**, tip **%.2f×** the loads/s.",
        results.stateCache().loadSpeedUp(LayoutKind.JOURNAL), results.stateCache().loadSpeedUp(LayoutKind.TIP));
  }

  private void async() {
    md.append("\n## Async\n\n");
    AsyncBenchmark.Results async = results.async();
    line("%d `transact` commands on %d distinct aggregates (a lane each, its commands one after the other), no"
        + " state cache: sent by one caller thread through the generated `CartAsyncRepository` (Netty,"
        + " `maxConcurrency` %d) with all %d lanes in flight, and through `CartRepository` from %d threads and from"
        + " one. Both repositories share one store. Async over %d threads: **%.2f** (target 0.9); async over one"
        + " thread: %.1f.", async.of(AsyncBenchmark.ASYNC_ONE_CALLER).commands(), AsyncBenchmark.IN_FLIGHT,
        AsyncBenchmark.IN_FLIGHT, AsyncBenchmark.IN_FLIGHT, AsyncBenchmark.IN_FLIGHT, AsyncBenchmark.IN_FLIGHT,
        async.asyncOverThreads(), async.asyncOverOneThread());
    md.append("| case | commands/s | latency p50 ms | latency p99 ms | requests per command | all applied |\n"
        + "|---|---|---|---|---|---|\n");
    for (AsyncBenchmark.Result c : async.cases()) {
      row("%s", "%.0f | %.1f | %.1f | %s | %s", c.name(), c.commandsPerSecond(), c.p50Millis(), c.p99Millis(),
          num(c.requestsPerCommand()), c.applied() ? "yes" : "**no**");
    }
  }

  private void compile() {
    md.append("\n## Compile time\n\n");
    var c = results.compile();
    line("javac (`--release 17`) on a generated domain of %d aggregates × %d events (%d source files);"
        + " esgen's processor adds %d files. Four ways, taking turns: without a processor, with esgen's, without"
        + " a processor on the sources plus the files esgen generated (how much of the overhead is javac compiling"
        + " the generated code rather than the processing rounds), and with a processor that writes one empty"
        + " class per aggregate (what generating any file per aggregate costs: javac runs two more rounds over"
        + " every source). *Warm*: in the benchmark's JVM, as a build daemon or an IDE compiles, median of %d runs"
        + " each after %d rounds of warm-up, by the wall clock and by the CPU time of the compiling thread."
        + " *Fresh process*: a new `javac` process per compilation, as `mvn compile` of one module runs it (JVM"
        + " start, class loading and interpretation included), median of %d runs each by the wall clock.",
        c.aggregates(), c.eventsPerAggregate(), c.sources(), c.generated(), c.runs(), c.runs(), c.runs());
    md.append("| javac | warm wall ms | / without | warm CPU ms | / without | fresh process wall ms | / without |\n"
        + "|---|---|---|---|---|---|---|\n");
    for (CompileTimeBenchmark.Side side : CompileTimeBenchmark.Side.values()) {
      var timing = c.timings().get(side);
      row("%s", "%.0f | %.2f× | %.0f | %.2f× | %.0f | %.2f×", side.label(), timing.wallMillis(), c.ratio(side, false),
          timing.cpuMillis(), c.ratio(side, true), c.freshProcessWallMillis().get(side), c.freshProcessRatio(side));
    }
  }

  private void scale() {
    md.append("\n## Scale\n\n");
    line("`load` of one stream of each length, esgen's default snapshot interval (100 events) against no snapshot"
        + " after creation. RCU per load as DynamoDB Local reports it for strongly consistent reads.");
    md.append("| policy | events | events after snapshot | loads | p50 ms | p99 ms | requests | RCU |\n");
    md.append("|---|---|---|---|---|---|---|---|\n");
    for (ScaleBenchmark.Point p : results.scale()) {
      row("%s | %,d", "%,d | %d | %.1f | %.1f | %s | %s", p.policy(), p.length(), p.eventsAfterSnapshot(),
          p.loads(), p.p50Millis(), p.p99Millis(), num(p.requestsPerLoad()), num(p.readUnitsPerLoad()));
    }
    md.append("\n![load latency and read capacity against stream length](").append(chart).append(")\n");
  }

  private void tipWriteCost() {
    md.append("\n## Tip write cost\n\n");
    line("Write units per single-event append (the write alone, as `append(versioned, events)` sends it) against the"
        + " stream's length, each setting's stream grown by one event at a time; mean per range of lengths."
        + " *billed* applies DynamoDB's published rules to the sizes of the items each append wrote (read back"
        + " through an unmetered client); *reported* is what DynamoDB Local said (it under-reports transactions"
        + " of several items in one table). RCU: one strongly consistent load of the finished stream.");
    md.append("| event | setting | 2-10 billed / reported | 11-50 | 51-100 | 101-200 | 201-300 | worst 10 appends in a row"
        + " (billed) | load RCU |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (TipWriteCost.Curve c : results.tipWriteCost()) {
      int length = c.appends().get(c.appends().size() - 1).length();
      StringBuilder cells = new StringBuilder();
      for (int[] range : new int[][] {{2, 10}, {11, 50}, {51, 100}, {101, 200}, {201, 300}}) {
        cells.append(range[0] > length ? " | " : String.format(Locale.ROOT, " | %.1f / %.1f",
            c.billedMean(range[0], range[1]), c.reportedMean(range[0], range[1])));
      }
      row("%s | %s%s", "%.1f | %s", c.body().label(), c.setup().name() + (c.setup().isTipDefault() ? " (default)" : ""),
          cells.toString(), c.worstWindow(10), num(c.loadReadUnits()));
    }
    md.append("\n![write units per append against stream length](").append(BenchSuite.TIP_CHART).append(")\n");
  }

  private void feed() {
    md.append("\n## Change feed\n\n");
    FeedBenchmark.Result first = results.feed().get(0);
    line("%d streams of %d events each (a create, then single-event appends) are written first; then one"
        + " `StreamPoller` (batches of up to 1000 records) hands the table's stream to a `ChangeFeed` until it is"
        + " idle. Requests and capacity are the feed's own (positions, gap reads, the exactly-once transactions),"
        + " per projected event; the poller's checkpoints are apart. Events/s: the events over the wall time of"
        + " the delivery, one consumer on one thread, DynamoDB Local on the same machine (load average above).",
        first.streams(), first.events() / first.streams());
    md.append("| layout | delivery | batches | requests / event | RCU / event | WCU / event | gap reads"
        + " | checkpoint requests | events/s | lost / doubled |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (FeedBenchmark.Result r : results.feed()) {
      row("%s | %s", "%d | %.3f | %.3f | %.3f | %d | %d | %.0f | %d / %d", r.layout(), r.delivery().label(),
          r.handleCalls(), r.requestsPerEvent(), r.readUnitsPerEvent(), r.writeUnitsPerEvent(), r.gapReads(),
          r.checkpoints().requests(), r.eventsPerSecond(), r.missing(), r.doubled());
    }
  }

  private void method() {
    md.append("\n## How it is measured\n\n");
    md.append("- Requests and capacity: an SDK `ExecutionInterceptor` on each client (esgen's and the floor's alike)"
        + " adds `ReturnConsumedCapacity=INDEXES` to every data request, counts requests as they go on the wire"
        + " (SDK retries included) and adds up the `ConsumedCapacity` of each response. esgen's runtime is"
        + " unchanged.\n");
    md.append("- What DynamoDB Local 3.1.0 reports (checked for this suite; 2.6.1, used before, reported"
        + " transactions at twice these units): `GetItem` and `Query` report read"
        + " units as DynamoDB bills them (1 per 4 KB, strongly consistent). `TransactWriteItems` reports one entry"
        + " per table, 2.0 write units when the items written to that table are under 1 KB whatever their number"
        + " (a 5-event append counts like a 1-event one), and on an index 2.0 for an entry written and 4.0 for one"
        + " changed, so WCU above compare"
        + " esgen with the floor but are not DynamoDB's bill, which is 2 WCU per item and KB in a transaction."
        + " `PutItem` and `UpdateItem` (the tip"
        + " layout) report 1 WCU per KB of the larger of the item's old and new size, as billed. `BatchGetItem`"
        + " reports the read units of all its keys together. Global secondary indexes are reported apart"
        + " (*Index writes*); the only ones are the index slots of `@Indexed` columns (esgen's optional"
        + " `aid-index` is off by default and was off here).\n");
    md.append("- The cart has an `@Indexed` owner and a `@Unique` code in every scenario, so a create also"
        + " reserves the code and sets the owner's index slot (journal: 3 actions in its transaction; tip: a"
        + " transaction of the tip's Put and the reservation instead of a lone `PutItem`). On the tip"
        + " layout the snapshot is rewritten by every append, so its *load, 10 / 100 events after snapshot* rows"
        + " are one `GetItem` of a tip that holds 11 / 101 events.\n");
    md.append("- Lookups: `loadByCode` is a consistent `GetItem` of the reservation, then the cart's load;"
        + " `listByOwner` a `Query` of the owner's index slot (limit 20), then one consistent `BatchGetItem` of"
        + " the 20 head rows (journal) or tips (tip); `findAll` one consistent `BatchGetItem` of 20 of them. Each lookup fixture is 20"
        + " carts of one owner, created before the clock starts.\n");
    md.append("- Streams a call needs are prepared before the clock starts, through a third, unmetered client;"
        + " every writing call gets a fresh stream, read-only calls cycle over 8 prepared streams.\n");
    md.append("- Throughput is measured calls over the sum of their latencies, single-threaded;"
        + " DynamoDB Local (SQLite) shares the machine's cores with the harness, so absolute figures are far"
        + " below DynamoDB's and the ratios are the point.\n");
    md.append("- Throughput sums every measured call, so a few stalls (a GC pause, another build taking the cores)"
        + " pull it down; the median latency ratio in the summary is the steadier figure on a shared machine.\n");
    md.append("- Codec and replay run under JMH in a forked JVM; the in-memory store, contention, scale and compile"
        + " time are a plain"
        + " harness with warm-up. Nothing asserts on timings.\n");
  }

  private Score score(String benchmark, String size) {
    return results.micro().stream()
        .filter(s -> s.benchmark().equals(benchmark) && s.size().equals(size))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no JMH result for " + benchmark + " " + size));
  }

  private double codecRatio(String direction, String size) {
    return score(direction + "Generated", size).score() / score(direction + "HandWritten", size).score();
  }

  private static int[] bodySizes(String size) {
    try {
      return CodecBenchmark.bodySizes(size);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String withError(Score s) {
    return Double.isNaN(s.error()) ? String.format(Locale.ROOT, "%.2f", s.score())
        : String.format(Locale.ROOT, "%.2f ± %.2f", s.score(), s.error());
  }

  /** Whole numbers without decimals, others with up to two. */
  private static String num(double value) {
    if (value == Math.rint(value)) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }

  private void line(String format, Object... args) {
    md.append(String.format(Locale.ROOT, format, args)).append("\n\n");
  }

  /** A table row from a first-cells format and a further-cells format sharing one argument list. */
  private void row(String first, String rest, Object... args) {
    md.append("| ").append(String.format(Locale.ROOT, first + " | " + rest, args)).append(" |\n");
  }
}
