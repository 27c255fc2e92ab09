package dev.esgen.bench;

import dev.esgen.bench.async.AsyncBenchmark;
import dev.esgen.bench.cache.StateCacheBenchmark;
import dev.esgen.bench.compile.CompileTimeBenchmark;
import dev.esgen.bench.contention.ContentionBenchmark;
import dev.esgen.bench.e2e.EndToEndBenchmark;
import dev.esgen.bench.feed.FeedBenchmark;
import dev.esgen.bench.measure.ThreadCounters;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.test.DynamoDbLocal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs one scenario of the suite at full size and prints its figures, for re-measuring or profiling a
 * few operations without the whole suite (which takes minutes). The load average is printed before and
 * after, since the figures mean little without it.
 *
 * <pre>
 * java -cp ... dev.esgen.bench.Scenario contention
 * java -cp ... dev.esgen.bench.Scenario feed
 * java -cp ... dev.esgen.bench.Scenario async
 * java -cp ... dev.esgen.bench.Scenario cache
 * java -cp ... dev.esgen.bench.Scenario e2e "journal, create" "journal, append 1" "tip, append 1"
 * java -cp ... dev.esgen.bench.Scenario compile 50 200
 * </pre>
 *
 * <p>e2e takes prefixes of {@code "layout, operation"}; none means every row. compile takes the numbers
 * of aggregates (of 10 events each) to compile; none means 50 and 200. It needs no DynamoDB Local.
 */
public final class Scenario {

  private Scenario() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || !List.of("e2e", "contention", "feed", "async", "cache", "compile").contains(args[0])) {
      System.err.println("usage: Scenario e2e [LAYOUT, OPERATION-PREFIX]... | Scenario contention | Scenario feed"
          + " | Scenario async | Scenario cache | Scenario compile [AGGREGATES]...");
      System.exit(2);
    }
    List<String> rows = Arrays.asList(args).subList(1, args.length);
    Settings full = Settings.full();
    Settings settings = full.withE2eWarmupCalls(Integer.getInteger("esgen.bench.warmup", full.e2eWarmupCalls()));
    System.out.println("load average before: " + Machine.current().loadAverage());
    if (args[0].equals("compile")) {
      compile(settings, rows.isEmpty() ? List.of("50", "200") : rows);
      System.out.println("load average after: " + Machine.current().loadAverage());
      return;
    }
    try (DynamoDbLocal local = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM)) {
      BenchSuite.createTables(local.endpoint());
      if (args[0].equals("async")) {
        AsyncBenchmark.Results async = new AsyncBenchmark(settings, local.endpoint()).run();
        System.out.println("| case | commands/s | latency p50 ms | latency p99 ms | requests per command | all applied |");
        for (AsyncBenchmark.Result r : async.cases()) {
          System.out.printf("| %s | %.0f | %.1f | %.1f | %.2f | %s |%n", r.name(), r.commandsPerSecond(), r.p50Millis(),
              r.p99Millis(), r.requestsPerCommand(), r.applied());
        }
        System.out.printf("async / %d threads: %.2f, async / 1 thread: %.1f%n", AsyncBenchmark.IN_FLIGHT,
            async.asyncOverThreads(), async.asyncOverOneThread());
      } else if (args[0].equals("cache")) {
        StateCacheBenchmark.Results cache = new StateCacheBenchmark(settings, local.endpoint()).run();
        System.out.println("| layout | state cache | commands/s | p50 ms | requests per command | all applied |");
        for (StateCacheBenchmark.Result r : cache.sides()) {
          System.out.printf("| %s | %s | %.0f | %.2f | %.2f | %s |%n", r.layout(), r.cached() ? "on" : "off",
              r.commandsPerSecond(), r.p50Millis(), r.requestsPerCommand(), r.applied());
        }
        System.out.printf("with / without the cache: journal %.2f, tip %.2f%n", cache.speedUp(LayoutKind.JOURNAL),
            cache.speedUp(LayoutKind.TIP));
        System.out.println("| layout | state cache | loads/s | p50 ms | requests per load | RCU per load |");
        for (StateCacheBenchmark.Result r : cache.sides()) {
          System.out.printf("| %s | %s | %.0f | %.2f | %.2f | %.2f |%n", r.layout(), r.cached() ? "on" : "off",
              r.loadsPerSecond(), r.loadP50Millis(), r.requestsPerLoad(), r.readUnitsPerLoad());
        }
        System.out.printf("loads with / without the cache: journal %.2f, tip %.2f%n",
            cache.loadSpeedUp(LayoutKind.JOURNAL), cache.loadSpeedUp(LayoutKind.TIP));
      } else if (args[0].equals("feed")) {
        System.out.println("| layout | delivery | batches | requests / event | RCU / event | WCU / event | gap reads"
            + " | events/s | lost / doubled |");
        for (FeedBenchmark.Result r : new FeedBenchmark(settings, local.endpoint()).run()) {
          System.out.printf("| %s | %s | %d | %.3f | %.3f | %.3f | %d | %.0f | %d / %d |%n", r.layout(),
              r.delivery().label(), r.handleCalls(), r.requestsPerEvent(), r.readUnitsPerEvent(),
              r.writeUnitsPerEvent(), r.gapReads(), r.eventsPerSecond(), r.missing(), r.doubled());
        }
      } else if (args[0].equals("contention")) {
        System.out.println("| case | commands/s | conflicts | attempts p99 | attempts max | latency p50 ms"
            + " | latency p99 ms | latency max ms | gave up | requests per command |");
        for (ContentionBenchmark.Result c : new ContentionBenchmark(settings, local.endpoint()).run()) {
          System.out.printf("| %s | %.0f | %d | %.0f | %d | %.1f | %.1f | %.1f | %d | %.2f |%n", c.name(),
              c.commandsPerSecond(), c.conflicts(), c.p99Attempts(), c.maxAttempts(), c.p50Millis(), c.p99Millis(),
              c.maxMillis(), c.failed(), c.requestsPerCommand());
        }
      } else {
        System.out.println("| row | requests esgen / floor | calls/s esgen / floor | esgen/floor"
            + " | p50 ms esgen / floor | p50 esgen/floor | CPU p50 µs esgen / floor | CPU esgen/floor"
            + " | allocated p50 KB esgen / floor | allocated esgen/floor |");
        List<EndToEndBenchmark.Result> results = new EndToEndBenchmark(settings, local.endpoint(),
            row -> rows.isEmpty() || rows.stream().anyMatch(row::startsWith)).run();
        for (EndToEndBenchmark.Result r : results) {
          EndToEndBenchmark.SideResult e = r.esgen().orElseThrow();
          EndToEndBenchmark.SideResult f = r.floor().orElseThrow();
          System.out.printf("| %s, %s | %.2f / %.2f | %.0f / %.0f | %.3f | %.2f / %.2f | %.3f | %.0f / %.0f | %.3f"
                  + " | %.1f / %.1f | %.3f |%n",
              r.layout(), r.operation(), e.requestsPerCall(), f.requestsPerCall(), e.callsPerSecond(),
              f.callsPerSecond(), r.throughputRatio(), e.p50Millis(), f.p50Millis(), e.p50Millis() / f.p50Millis(),
              e.cpuP50Micros(), f.cpuP50Micros(), e.cpuP50Micros() / f.cpuP50Micros(),
              e.allocatedBytesP50() / 1024.0, f.allocatedBytesP50() / 1024.0,
              (double) e.allocatedBytesP50() / f.allocatedBytesP50());
        }
        System.out.println("Per call, as the kernel counted for the calling thread (esgen / floor):");
        System.out.println("| row | user ms | system ms | minor faults | voluntary / involuntary switches"
            + " | read calls | write calls | bytes read | bytes written |");
        for (EndToEndBenchmark.Result r : results) {
          EndToEndBenchmark.SideResult e = r.esgen().orElseThrow();
          EndToEndBenchmark.SideResult f = r.floor().orElseThrow();
          if (e.kernel().isPresent() && f.kernel().isPresent()) {
            ThreadCounters ek = e.kernel().get();
            ThreadCounters fk = f.kernel().get();
            double ec = e.calls();
            double fc = f.calls();
            // Clock ticks of 10 ms: ms per call is ticks × 10 / calls.
            System.out.printf("| %s, %s | %.3f / %.3f | %.3f / %.3f | %.2f / %.2f | %.2f / %.2f, %.2f / %.2f"
                    + " | %.2f / %.2f | %.2f / %.2f | %.0f / %.0f | %.0f / %.0f |%n",
                r.layout(), r.operation(), ek.userTicks() * 10 / ec, fk.userTicks() * 10 / fc,
                ek.systemTicks() * 10 / ec, fk.systemTicks() * 10 / fc, ek.minorFaults() / ec, fk.minorFaults() / fc,
                ek.voluntarySwitches() / ec, fk.voluntarySwitches() / fc, ek.involuntarySwitches() / ec,
                fk.involuntarySwitches() / fc, ek.readCalls() / ec, fk.readCalls() / fc, ek.writeCalls() / ec,
                fk.writeCalls() / fc, ek.readBytes() / ec, fk.readBytes() / fc, ek.writtenBytes() / ec,
                fk.writtenBytes() / fc);
          }
        }
      }
    }
    System.out.println("load average after: " + Machine.current().loadAverage());
  }

  private static void compile(Settings settings, List<String> sizes) throws Exception {
    List<CompileTimeBenchmark.Result> results = new ArrayList<>();
    for (String size : sizes) {
      results.add(new CompileTimeBenchmark(settings).run(Integer.parseInt(size), settings.compileEventsPerAggregate()));
      System.out.println("load average: " + Machine.current().loadAverage());
    }
    System.out.println("| domain | files + generated | javac | warm wall ms | / without | warm CPU ms | / without"
        + " | fresh process wall ms | / without |");
    for (CompileTimeBenchmark.Result c : results) {
      for (CompileTimeBenchmark.Side side : CompileTimeBenchmark.Side.values()) {
        System.out.printf("| %d × %d | %d + %d | %s | %.0f | %.2f× | %.0f | %.2f× | %.0f | %.2f× |%n", c.aggregates(),
            c.eventsPerAggregate(), c.sources(), c.generated(), side.label(), c.timings().get(side).wallMillis(),
            c.ratio(side, false), c.timings().get(side).cpuMillis(), c.ratio(side, true),
            c.freshProcessWallMillis().get(side), c.freshProcessRatio(side));
      }
    }
  }
}
