package dev.esgen.bench.codec;

import dev.esgen.bench.Settings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs the JMH benchmarks of this package (codec and replay) through JMH's API and collects scores. */
public final class MicroBenchmarks {

  private final Settings settings;

  public MicroBenchmarks(Settings settings) {
    this.settings = settings;
  }

  /**
   * One JMH score.
   *
   * @param benchmark the method, e.g. {@code encodeGenerated}
   * @param size the {@code size} parameter, empty for replay
   * @param score in {@code unit}
   * @param error the 99.9% confidence half-width JMH reports (NaN with too few iterations)
   */
  public record Score(String benchmark, String size, double score, double error, String unit) {}

  public List<Score> run() throws RunnerException {
    Options options = new OptionsBuilder()
        .include(CodecBenchmark.class.getName() + "\\.")
        .include(ReplayBenchmark.class.getName() + "\\.")
        .forks(settings.jmhForks())
        .warmupIterations(settings.jmhWarmupIterations())
        .warmupTime(TimeValue.milliseconds(settings.jmhIterationMillis()))
        .measurementIterations(settings.jmhIterations())
        .measurementTime(TimeValue.milliseconds(settings.jmhIterationMillis()))
        .shouldFailOnError(true)
        .verbosity(settings.jmhVerbosity())
        .build();
    Collection<RunResult> results = new Runner(options).run();
    List<Score> scores = new ArrayList<>();
    for (RunResult result : results) {
      String label = result.getParams().getBenchmark();
      String method = label.substring(label.lastIndexOf('.') + 1);
      String size = result.getParams().getParam("size");
      var primary = result.getPrimaryResult();
      scores.add(new Score(method, size == null ? "" : size, primary.getScore(), primary.getScoreError(),
          primary.getScoreUnit()));
    }
    return scores;
  }
}
