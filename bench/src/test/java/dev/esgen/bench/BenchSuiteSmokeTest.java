package dev.esgen.bench;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.bench.codec.MicroBenchmarks;
import dev.esgen.bench.contention.ContentionBenchmark;
import dev.esgen.bench.e2e.EndToEndBenchmark;
import dev.esgen.bench.e2e.EndToEndBenchmark.SideResult;
import dev.esgen.bench.scale.ScaleBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
    assertTrue(report.contains("lookup by index column") && report.contains("not yet available"));
    assertTrue(Files.size(OUT.resolve(BenchSuite.CHART)) > 1_000, "chart is empty");
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
      checks.add(() -> assertEquals(floor.requestsPerCall(), esgen.requestsPerCall(), r.operation() + ": requests"));
      checks.add(() -> assertEquals(floor.readUnitsPerCall(), esgen.readUnitsPerCall(), 1e-9, r.operation() + ": RCU"));
      checks.add(() -> assertEquals(floor.writeUnitsPerCall(), esgen.writeUnitsPerCall(), 1e-9, r.operation() + ": WCU"));
      checks.add(() -> assertTrue(r.throughputRatio() > 0, r.operation() + ": ratio"));
    }
    assertAll(checks);
  }

  @Test
  void requestCountsAreTheSchemasOwn() {
    assertEquals(1.0, requests("create"));
    assertEquals(2.0, requests("append 1 event"), "GetItem of the head, then one transaction");
    assertEquals(1.0, requests("load, snapshot current"));
    assertEquals(2.0, requests("load, 100 events after snapshot"), "GetItem and one Query page");
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
    ContentionBenchmark.Result shared = results.contention().get(0);
    assertEquals(1 + shared.commands(), shared.finalVersion(), "every completed command is one append");
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
  void processorOverheadIsMeasured() {
    assertTrue(results.compile().generated() > 0, "the processor generated nothing");
    assertTrue(results.compile().overhead() > 0);
  }

  private static double requests(String operation) {
    return results.endToEnd().stream().filter(r -> r.operation().equals(operation)).findFirst().orElseThrow()
        .esgen().orElseThrow().requestsPerCall();
  }
}
