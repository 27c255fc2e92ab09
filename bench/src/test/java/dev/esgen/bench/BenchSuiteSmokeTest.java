package dev.esgen.bench;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.bench.async.AsyncBenchmark;
import dev.esgen.bench.cache.StateCacheBenchmark;
import dev.esgen.bench.codec.MicroBenchmarks;
import dev.esgen.bench.compile.CompileTimeBenchmark;
import dev.esgen.bench.contention.ContentionBenchmark;
import dev.esgen.bench.e2e.EndToEndBenchmark.SideResult;
import dev.esgen.bench.e2e.EndToEndBenchmark;
import dev.esgen.bench.e2e.IndexWriteCost;
import dev.esgen.bench.feed.FeedBenchmark;
import dev.esgen.bench.scale.ScaleBenchmark;
import dev.esgen.bench.tip.TipWriteCost;
import dev.esgen.runtime.aggregate.LayoutKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs the whole suite with tiny counts so that it cannot rot: every scenario runs, the report has every
 * section and the chart is drawn. Asserts only what does not depend on timing.
 */
class BenchSuiteSmokeTest {

  private static final Path OUT = Path.of("target", "smoke");
  private static BenchSuite.Results results;

  @BeforeAll
  static void runSuite() throws Exception {
    results = BenchSuite.run(Settings.smoke(), OUT);
  }

  @Test
  void reportHasEverySectionAndTheChart() throws Exception {
    String report = Files.readString(OUT.resolve(BenchSuite.REPORT));
    for (String section : Report.SECTIONS) {
      assertTrue(report.contains("\n" + section + "\n"), "report lacks " + section);
    }
    assertTrue(report.contains("loadByCode") && report.contains("listByOwner") && report.contains("findAll"));
    assertTrue(Files.size(OUT.resolve(BenchSuite.CHART)) > 1_000, "chart is empty");
    assertTrue(Files.size(OUT.resolve(BenchSuite.TIP_CHART)) > 1_000, "tip chart is empty");
  }

  @ParameterizedTest
  @EnumSource(TipWriteCost.Body.class)
  void withTheDefaultsATipAppendIsNeverDearerThanAJournalAppend(TipWriteCost.Body body) {
    TipWriteCost.Curve journal = curve("journal", body);
    TipWriteCost.Curve tip = defaultTip(body);
    List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
    int last = tip.appends().get(tip.appends().size() - 1).length();
    // Every run of ten appends in a row, wherever in the stream: calving appends included. A curve shorter
    // than that (the smoke run's 2 KB one) is compared over all its appends after the create.
    int run = Math.min(10, last - 1);
    assertTrue(run >= 2, "the curve has appends to compare: " + last);
    for (int from = 2; from + run - 1 <= last; from++) {
      int start = from;
      int end = from + run - 1;
      checks.add(() -> assertTrue(tip.billedMean(start, end) <= journal.billedMean(start, end),
          "billed, appends " + start + " to " + end));
      checks.add(() -> assertTrue(tip.reportedMean(start, end) <= journal.reportedMean(start, end),
          "reported, appends " + start + " to " + end));
    }
    for (TipWriteCost.Append append : tip.appends()) {
      checks.add(() -> assertEquals(1, append.requests(), "append " + append.length() + " is one request"));
    }
    assertAll(checks);
  }

  @Test
  void theOldThirtyTwoKilobyteTipGrewDearerThanTheJournalWhichTheMeasurementShows() {
    TipWriteCost.Curve journal = curve("journal", TipWriteCost.Body.SMALL);
    TipWriteCost.Curve old = curve("tip, 32 KB", TipWriteCost.Body.SMALL);
    int last = old.appends().get(old.appends().size() - 1).length();
    assertTrue(old.billedMean(last - 9, last) > journal.billedMean(last - 9, last),
        "32 KB tip " + old.billedMean(last - 9, last) + " vs journal " + journal.billedMean(last - 9, last));
  }

  @Test
  void twoKilobyteEventsKeptInATipOfLargerThresholdsCostMoreThanTheJournal() {
    // Under thresholds of 4 KB and more a 2 KB event stays in the tip, which every later append rewrites;
    // under smaller ones it goes straight to a batch item, as the defaults' row above shows.
    TipWriteCost.Curve journal = curve("journal", TipWriteCost.Body.TWO_KB);
    for (TipWriteCost.Curve tip : results.tipWriteCost()) {
      if (tip.body() == TipWriteCost.Body.TWO_KB && tip.setup().layout() == LayoutKind.TIP
          && tip.setup().tip().maxBytes() >= 4096) {
        assertTrue(tip.billedMean(2, 1_000) > journal.billedMean(2, 1_000), tip.setup().name());
      }
    }
  }

  @Test
  void withTheDefaultsATipLoadIsOneGetItemOfAtMostOneReadUnit() {
    for (TipWriteCost.Body body : TipWriteCost.Body.values()) {
      TipWriteCost.Curve tip = defaultTip(body);
      assertEquals(1.0, tip.loadRequests(), body.label());
      assertTrue(tip.loadReadUnits() <= 1.0, body.label() + ": " + tip.loadReadUnits() + " RCU, tip of "
          + tip.tipBytes() + " bytes");
    }
  }

  @Test
  void esgenSendsExactlyTheFloorsRequestsAndWritesAsMuch() {
    List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
    for (EndToEndBenchmark.Result r : results.endToEnd()) {
      if (r.unavailable().isPresent()) {
        continue;
      }
      SideResult esgen = r.esgen().orElseThrow();
      SideResult floor = r.floor().orElseThrow();
      String what = r.layout() + ", " + r.operation();
      checks.add(() -> assertEquals(floor.requestsPerCall(), esgen.requestsPerCall(), what + ": requests"));
      checks.add(() -> assertEquals(floor.readUnitsPerCall(), esgen.readUnitsPerCall(), 1e-9, what + ": RCU"));
      checks.add(() -> assertEquals(floor.writeUnitsPerCall(), esgen.writeUnitsPerCall(), 1e-9, what + ": WCU"));
      checks.add(() -> assertEquals(0, esgen.unreportedCapacity() + floor.unreportedCapacity(), what + ": unreported"));
      checks.add(() -> assertTrue(r.throughputRatio() > 0, what + ": ratio"));
    }
    assertAll(checks);
  }

  @Test
  void everyLayoutIsMeasuredAndEveryLookupOnTheJournal() {
    for (dev.esgen.bench.e2e.Layout layout : EndToEndBenchmark.LAYOUTS) {
      assertTrue(results.endToEnd().stream().anyMatch(r -> r.layout().equals(layout.name()) && r.esgen().isPresent()),
          layout.name());
    }
    for (String layout : List.of("journal", "tip")) {
      for (String lookup : List.of("loadByCode", "listByOwner", "findAll")) {
        assertTrue(results.endToEnd().stream().anyMatch(r -> r.layout().equals(layout)
            && r.operation().startsWith(lookup) && r.esgen().isPresent()), layout + " " + lookup);
      }
    }
  }

  @Test
  void asyncCommandsSendWhatSyncOnesSendAndAllAreApplied() {
    AsyncBenchmark.Results async = results.async();
    assertEquals(3, async.cases().size());
    int perLane = Settings.smoke().contentionCommandsPerThread();
    // The cart snapshots every 1,000 events: a lane's first command finds its snapshot current (GetItem, then
    // the transaction), every later one also queries the events after it.
    double expected = (2.0 + 3.0 * (perLane - 1)) / perLane;
    for (AsyncBenchmark.Result c : async.cases()) {
      assertEquals(expected, c.requestsPerCommand(), 1e-9, c.name() + ": requests per command");
      assertTrue(c.applied(), c.name() + ": every command applied once");
      assertEquals(AsyncBenchmark.IN_FLIGHT * perLane, c.commands(), c.name());
    }
  }

  @Test
  void requestCountsAreTheSchemasOwn() {
    assertEquals(1.0, requests("journal", "create"));
    assertEquals(2.0, requests("journal", "append 1 event"), "GetItem of the head, then one transaction");
    assertEquals(1.0, requests("journal", "load, snapshot current"));
    assertEquals(2.0, requests("journal", "load, 100 events after snapshot"), "GetItem and one Query page");
    assertEquals(2.0, requests("journal", "loadByCode"), "GetItem of the reservation, GetItem of the head");
    assertEquals(2.0, requests("journal", "listByOwner"), "index Query, one BatchGetItem");
    assertEquals(1.0, requests("journal", "findAll"), "one BatchGetItem for 20 ids");
    assertEquals(1.0, requests("tip", "create"), "one transaction: the tip's Put and the code's reservation");
    assertEquals(2.0, requests("tip", "append 1 event"), "GetItem of the tip, then one UpdateItem");
    assertEquals(1.0, requests("tip", "load, 100 events after snapshot"), "one GetItem whatever the length");
    assertEquals(2.0, requests("tip", "loadByCode"), "GetItem of the reservation, GetItem of the tip");
    assertEquals(2.0, requests("tip", "listByOwner"), "index Query, one BatchGetItem");
    assertEquals(1.0, requests("tip", "findAll"), "one BatchGetItem for 20 ids");
  }

  @Test
  void anAppendThatChangesNoIndexValueWritesNoIndex() {
    for (String layout : List.of("journal", "tip")) {
      IndexWriteCost.Row noChange = indexWrite(layout, IndexWriteCost.NO_CHANGE);
      IndexWriteCost.Row noColumns = indexWrite(layout, IndexWriteCost.NO_COLUMNS);
      assertEquals(0.0, noChange.indexUnitsAllRuns(), noChange.toString());
      assertEquals(0.0, noColumns.indexUnitsAllRuns(), noColumns.toString());
      assertEquals(noColumns.tableUnits(), noChange.tableUnits(), layout + ": unchanged index columns cost nothing");
      assertEquals(1, noChange.requests(), layout);
      IndexWriteCost.Row indexed = indexWrite(layout, IndexWriteCost.INDEXED_CHANGED);
      assertTrue(indexed.indexUnitsAllRuns() > 0, layout + ": changing the @Indexed owner writes its index: " + indexed);
      assertEquals(0.0, indexWrite(layout, IndexWriteCost.UNIQUE_CHANGED).indexUnitsAllRuns(),
          layout + ": reservations are in no index");
    }
  }

  @Test
  void theFeedProjectsEveryEventOnceAtTheRequestCountsDocsProjectionsStates() {
    assertEquals(4, results.feed().size(), "two layouts, two deliveries");
    List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>();
    for (FeedBenchmark.Result r : results.feed()) {
      String what = r.layout() + ", " + r.delivery().label();
      int positionReads = r.handleCalls() * ((r.streams() + 99) / 100);
      checks.add(() -> assertEquals(0, r.missing(), what + ": lost"));
      checks.add(() -> assertEquals(0, r.doubled(), what + ": doubled"));
      checks.add(() -> assertEquals(r.events(), r.projected(), what + ": projected"));
      checks.add(() -> assertEquals(0, r.gapReads(), what + ": every record arrived in order, no gap to read"));
      // docs/projections.md: one position read per batch (100 streams a BatchGetItem) and, at least once, one
      // position write per stream and batch; exactly once, one transaction per event instead.
      long expected = r.delivery() == FeedBenchmark.Delivery.AT_LEAST_ONCE
          ? positionReads + (long) r.streams() * r.handleCalls()
          : positionReads + r.events();
      checks.add(() -> assertTrue(r.feed().requests() <= expected,
          what + ": " + r.feed().requests() + " requests, at most " + expected));
      checks.add(() -> assertTrue(r.feed().requests() >= (r.delivery() == FeedBenchmark.Delivery.AT_LEAST_ONCE
          ? r.streams() : r.events()), what + ": every stream's position moved"));
      checks.add(() -> assertEquals(0, r.feed().unreported(), what + ": unreported capacity"));
    }
    assertAll(checks);
  }

  @Test
  void everyMicroBenchmarkScored() {
    assertEquals(9, results.micro().size(), "8 codec cases and replay");
    for (MicroBenchmarks.Score s : results.micro()) {
      assertTrue(s.score() > 0, s.benchmark() + " " + s.size());
    }
  }

  @Test
  void contentionLosesNoCommand() {
    for (ContentionBenchmark.Result c : results.contention()) {
      assertEquals(ContentionBenchmark.THREADS * results.settings().contentionCommandsPerThread(),
          c.commands() + c.failed(), c.name());
      assertTrue(c.maxAttempts() >= 1, c.name());
    }
    for (String shared : List.of(ContentionBenchmark.SHARED, ContentionBenchmark.IMMEDIATE_SHARED,
        ContentionBenchmark.STATE_CACHE_SHARED, ContentionBenchmark.FOUR_STORES_SHARED,
        ContentionBenchmark.FOUR_STORES_STATE_CACHE_SHARED)) {
      ContentionBenchmark.Result c = contention(shared);
      assertEquals(1 + c.commands(), c.finalVersion(), shared + ": every completed command is one append");
    }
  }

  @Test
  void withTheStateCacheATransactNoOneElseWroteIsOneRequest() {
    ContentionBenchmark.Result distinct = contention(ContentionBenchmark.STATE_CACHE_DISTINCT);
    assertEquals(0, distinct.conflicts());
    assertEquals(1.0, distinct.requestsPerCommand(), "the append only, no load");
    assertTrue(contention(ContentionBenchmark.DISTINCT).requestsPerCommand() >= 2.0, "without: a load and the append");
  }

  @Test
  void scaleLoadsGrowWithoutSnapshotsOnly() {
    for (ScaleBenchmark.Point p : results.scale()) {
      assertTrue(p.readUnitsPerLoad() > 0, p.policy() + " " + p.length());
      if (p.policy().startsWith("without")) {
        assertEquals(p.length() - 1, p.eventsAfterSnapshot());
      } else {
        assertTrue(p.eventsAfterSnapshot() < 100);
      }
    }
  }

  @Test
  void everyInMemoryStoreOperationIsTimed() {
    assertEquals(3, results.inMemory().size());
    for (var r : results.inMemory()) {
      assertEquals(results.settings().memoryAppendsPerRound() * (long) results.settings().memoryRounds(), r.appends(),
          r.operation());
      assertTrue(r.perCpuSecond() > 0 && r.perWallSecond() > 0, r.operation());
    }
  }

  @Test
  void theStateCacheLetsTheOnlyWriterSendItsAppendAlone() {
    for (StateCacheBenchmark.Result r : results.stateCache().sides()) {
      String side = r.layout() + (r.cached() ? " with" : " without") + " the cache";
      assertTrue(r.applied(), side + ": a command was lost or doubled");
      assertTrue(r.commands() > 0 && r.commandsPerSecond() > 0, side);
      if (r.cached()) {
        assertEquals(1.0, r.requestsPerCommand(), side);
      } else {
        assertTrue(r.requestsPerCommand() >= 2, side + ": " + r.requestsPerCommand());
      }
    }
  }

  @Test
  void withTheStateCacheALoadOfAStreamNoOneElseWroteReadsOnlyItsHead() {
    for (LayoutKind layout : LayoutKind.values()) {
      StateCacheBenchmark.Result cached = results.stateCache().of(layout, true);
      StateCacheBenchmark.Result plain = results.stateCache().of(layout, false);
      assertTrue(cached.loads() > 0 && cached.loadsPerSecond() > 0 && plain.loadsPerSecond() > 0, layout.name());
      assertEquals(1.0, cached.requestsPerLoad(), layout + " with the cache: the head or tip only");
      assertTrue(cached.readUnitsPerLoad() <= plain.readUnitsPerLoad(), layout + ": " + cached.readUnitsPerLoad()
          + " RCU with the cache, " + plain.readUnitsPerLoad() + " without");
    }
    // Every journal stream has an event after its snapshot (the Cart snapshots every 1,000 events).
    assertEquals(2.0, results.stateCache().of(LayoutKind.JOURNAL, false).requestsPerLoad(),
        "journal without the cache: the head row, then the events after the snapshot");
    assertEquals(1.0, results.stateCache().of(LayoutKind.TIP, false).requestsPerLoad(), "tip: its snapshot is current");
  }

  @Test
  void processorOverheadIsMeasured() {
    CompileTimeBenchmark.Result compile = results.compile();
    // One file per aggregate: the parts of its definition are nested in the repository.
    assertEquals(compile.aggregates(), compile.generated(), "generated files");
    for (CompileTimeBenchmark.Side side : CompileTimeBenchmark.Side.values()) {
      CompileTimeBenchmark.Timing timing = compile.timings().get(side);
      assertTrue(timing.wallMillis() > 0 && timing.cpuMillis() > 0, side.label());
      assertTrue(compile.freshProcessWallMillis().get(side) > 0, side.label() + ", fresh process");
    }
  }

  private static double requests(String layout, String operation) {
    return results.endToEnd().stream()
        .filter(r -> r.layout().equals(layout) && r.operation().startsWith(operation)).findFirst().orElseThrow()
        .esgen().orElseThrow().requestsPerCall();
  }

  private static ContentionBenchmark.Result contention(String name) {
    return results.contention().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  private static TipWriteCost.Curve curve(String setting, TipWriteCost.Body body) {
    return results.tipWriteCost().stream().filter(c -> c.setup().name().equals(setting) && c.body() == body)
        .findFirst().orElseThrow();
  }

  private static TipWriteCost.Curve defaultTip(TipWriteCost.Body body) {
    return results.tipWriteCost().stream().filter(c -> c.setup().isTipDefault() && c.body() == body)
        .findFirst().orElseThrow();
  }

  private static IndexWriteCost.Row indexWrite(String layout, String append) {
    return results.indexWrites().stream().filter(r -> r.layout().equals(layout) && r.append().equals(append))
        .findFirst().orElseThrow();
  }
}
