package dev.esgen.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * How much of everything the suite runs: {@link #full()} for the figures in docs/performance.md,
 * {@link #smoke()} for {@code mvn verify}, which only proves every scenario still runs.
 *
 * @param mode "full" or "smoke", printed in the report
 * @param e2eWarmupCalls untimed calls per operation and side before measuring, in blocks of
 *     {@code e2eCallsPerRound} that the sides take turns to start: enough for the JIT to compile the code
 *     each side runs once per call (esgen's own and Jackson's; with 100 it still ran interpreted or
 *     C1-compiled while measured, and a snapshot decode took tens of times what it takes compiled)
 * @param e2eCallsPerRound measured calls per operation, side and round
 * @param e2eRounds rounds in which the sides take turns
 * @param contentionCommandsPerThread commands each of the four threads runs
 * @param scaleLengths stream lengths the scale scenario loads
 * @param scaleLoads measured loads per stream length (fewer for the longest streams, see {@link #loadsAt})
 * @param compileAggregates aggregates in the generated domain the compile-time benchmark compiles
 * @param compileEventsPerAggregate events per aggregate in that domain
 * @param compileRuns measured compilations of each way, in this JVM after as many rounds of warm-up, and in fresh javac processes
 * @param memoryAppendsPerRound appends per round of each in-memory store operation (one untimed round first)
 * @param memoryRounds measured rounds of each in-memory store operation
 * @param jmhForks JMH forks (0 runs in this JVM)
 * @param jmhWarmupIterations JMH warm-up iterations
 * @param jmhIterations JMH measured iterations
 * @param jmhIterationMillis the length of one JMH iteration
 * @param tipCurveLength the stream length the tip write-cost curve grows each setting's stream to (a
 *     quarter of it with 2 KB events)
 * @param feedStreams streams the change-feed scenario writes per case
 * @param feedEventsPerStream events per stream in that scenario: a create, then one append per event
 */
public record Settings(
    String mode,
    int e2eWarmupCalls,
    int e2eCallsPerRound,
    int e2eRounds,
    int contentionCommandsPerThread,
    List<Integer> scaleLengths,
    int scaleLoads,
    int compileAggregates,
    int compileEventsPerAggregate,
    int compileRuns,
    int memoryAppendsPerRound,
    int memoryRounds,
    int jmhForks,
    int jmhWarmupIterations,
    int jmhIterations,
    int jmhIterationMillis,
    int tipCurveLength,
    int feedStreams,
    int feedEventsPerStream) {

  public static Settings full() {
    return new Settings("full", 1_000, 100, 6, 100, List.of(10, 100, 1_000, 10_000), 40, 50, 10, 5, 200_000, 5, 1, 3, 5,
        1_000, 300, 200, 10);
  }

  public static Settings smoke() {
    return new Settings("smoke", 2, 3, 2, 3, List.of(10, 100), 2, 2, 3, 1, 1_000, 1, 0, 1, 1, 50, 40, 10, 5);
  }

  /** These settings with {@code calls} untimed calls per end-to-end operation and side before measuring. */
  public Settings withE2eWarmupCalls(int calls) {
    return new Settings(mode, calls, e2eCallsPerRound, e2eRounds, contentionCommandsPerThread, scaleLengths, scaleLoads,
        compileAggregates, compileEventsPerAggregate, compileRuns, memoryAppendsPerRound, memoryRounds, jmhForks,
        jmhWarmupIterations, jmhIterations, jmhIterationMillis, tipCurveLength, feedStreams, feedEventsPerStream);
  }

  /** Whether this run reports its progress: the full run does; the smoke run in {@code mvn verify} keeps quiet. */
  public boolean verbose() {
    return mode.equals("full");
  }

  /** Where the suite reports its progress: standard output when {@link #verbose()}, else nowhere. */
  public PrintStream progress() {
    return verbose() ? System.out : new PrintStream(OutputStream.nullOutputStream());
  }

  /** JMH's own output: its normal banners and figures when {@link #verbose()}, else none. */
  public VerboseMode jmhVerbosity() {
    return verbose() ? VerboseMode.NORMAL : VerboseMode.SILENT;
  }

  /** Loads measured at {@code length}: long streams take seconds per load, so fewer of them. */
  public int loadsAt(int length) {
    return Math.max(2, Math.min(scaleLoads, scaleLoads * 100 / Math.max(100, length / 10)));
  }
}
