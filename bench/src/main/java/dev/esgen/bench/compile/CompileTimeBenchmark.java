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
 * javac on a generated domain (N aggregates with M events each, as a user would write them), once with
 * esgen's processor and once without ({@code -proc:none}), alternating, in this JVM after a warm-up of
 * each. The overhead includes compiling what the processor generates: that is what a user waits for.
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
   */
  public record Result(int aggregates, int eventsPerAggregate, int sources, int generated, int runs,
      double withoutMillis, double withMillis) {

    public double overhead() {
      return withMillis / withoutMillis;
    }
  }

  public Result run() throws IOException {
    Path work = Files.createTempDirectory("esgen-compile-bench");
    try {
      List<Path> sources = DomainGenerator.write(work.resolve("src"), settings.compileAggregates(),
          settings.compileEventsPerAggregate());
      String classpath = resource("domain-classpath.txt");
      String processorPath = resource("processor-path.txt");
      List<String> without = List.of("-proc:none", "-classpath", classpath);
      List<String> with = List.of("-processorpath", processorPath, "-classpath", classpath);
      compile(work, "warm-without", sources, without);
      compile(work, "warm-with", sources, with);
      long[] withoutNanos = new long[settings.compileRuns()];
      long[] withNanos = new long[settings.compileRuns()];
      for (int run = 0; run < settings.compileRuns(); run++) {
        settings.progress().printf("  compile time: run %d of %d%n", run + 1, settings.compileRuns());
        withoutNanos[run] = compile(work, "without-" + run, sources, without);
        withNanos[run] = compile(work, "with-" + run, sources, with);
      }
      int generated;
      try (Stream<Path> files = Files.walk(work.resolve("generated-with-0"))) {
        generated = (int) files.filter(p -> p.toString().endsWith(".java")).count();
      }
      return new Result(settings.compileAggregates(), settings.compileEventsPerAggregate(), sources.size(),
          generated, settings.compileRuns(), median(withoutNanos) / 1e6, median(withNanos) / 1e6);
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
