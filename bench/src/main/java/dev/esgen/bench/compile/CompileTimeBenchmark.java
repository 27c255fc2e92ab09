package dev.esgen.bench.compile;

import dev.esgen.bench.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * javac on a generated domain (N aggregates with M events each, as a user would write them), three ways
 * taking turns in this JVM after a warm-up of each: without esgen's processor ({@code -proc:none}); with
 * it; and without it on the same sources plus the files the processor generated. The overhead of the
 * second over the first is what a user waits for; the third shows how much of it is javac compiling the
 * generated volume, and so how much is the processing round itself.
 */
public final class CompileTimeBenchmark {

  private final Settings settings;

  public CompileTimeBenchmark(Settings settings) {
    this.settings = settings;
  }

  /**
   * @param sources hand-written source files compiled
   * @param generated source files the processor added
   * @param withoutMillis median wall time without the processor
   * @param withMillis median wall time with it
   * @param generatedWithoutProcessorMillis median wall time without the processor on the sources plus the
   *     files it generated
   */
  public record Result(int aggregates, int eventsPerAggregate, int sources, int generated, int runs,
      double withoutMillis, double withMillis, double generatedWithoutProcessorMillis) {

    /** With the processor over without it: what the processor costs a build. */
    public double overhead() {
      return withMillis / withoutMillis;
    }

    /** The sources plus the generated files without the processor, over the sources alone. */
    public double generatedOverhead() {
      return generatedWithoutProcessorMillis / withoutMillis;
    }
  }

  /** The domain of {@link Settings#compileAggregates()} aggregates. */
  public Result run() throws IOException {
    return run(settings.compileAggregates(), settings.compileEventsPerAggregate());
  }

  public Result run(int aggregates, int eventsPerAggregate) throws IOException {
    Path work = Files.createTempDirectory("esgen-compile-bench");
    try {
      List<Path> sources = DomainGenerator.write(work.resolve("src"), aggregates, eventsPerAggregate);
      String classpath = resource("domain-classpath.txt");
      String processorPath = resource("processor-path.txt");
      List<String> without = List.of("-proc:none", "-classpath", classpath);
      List<String> with = List.of("-processorpath", processorPath, "-classpath", classpath);
      compile(work, "warm-with", sources, with);
      List<Path> generated;
      try (Stream<Path> files = Files.walk(work.resolve("generated-warm-with"))) {
        generated = files.filter(p -> p.toString().endsWith(".java")).toList();
      }
      List<Path> sourcesAndGenerated = new ArrayList<>(sources);
      sourcesAndGenerated.addAll(generated);
      compile(work, "warm-without", sources, without);
      compile(work, "warm-generated", sourcesAndGenerated, without);
      int runs = settings.compileRuns();
      long[] withoutNanos = new long[runs];
      long[] withNanos = new long[runs];
      long[] generatedNanos = new long[runs];
      for (int run = 0; run < runs; run++) {
        settings.progress().printf("  compile time, %d aggregates: run %d of %d%n", aggregates, run + 1, runs);
        // Each run starts with another side, so that none always follows the same one.
        for (int turn = 0; turn < 3; turn++) {
          switch ((run + turn) % 3) {
            case 0 -> withoutNanos[run] = compile(work, "without-" + run, sources, without);
            case 1 -> withNanos[run] = compile(work, "with-" + run, sources, with);
            default -> generatedNanos[run] = compile(work, "plus-generated-" + run, sourcesAndGenerated, without);
          }
        }
      }
      return new Result(aggregates, eventsPerAggregate, sources.size(), generated.size(), runs,
          median(withoutNanos) / 1e6, median(withNanos) / 1e6, median(generatedNanos) / 1e6);
    } finally {
      delete(work);
    }
  }

  private static long compile(Path work, String name, List<Path> sources, List<String> options) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Path classes = Files.createDirectories(work.resolve("classes-" + name));
    Path generated = Files.createDirectories(work.resolve("generated-" + name));
    List<String> arguments = new ArrayList<>(options);
    arguments.addAll(List.of("--release", "17", "-d", classes.toString(), "-s", generated.toString()));
    StringWriter diagnostics = new StringWriter();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromPaths(sources);
      long start = System.nanoTime();
      boolean ok = javac.getTask(diagnostics, files, null, arguments, null, units).call();
      long elapsed = System.nanoTime() - start;
      if (!ok) {
        throw new IllegalStateException("the generated domain did not compile (" + name + "):\n" + diagnostics);
      }
      return elapsed;
    }
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = CompileTimeBenchmark.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is missing: build esgen-bench with Maven, which writes it");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
