package dev.esgen.bench.compile;

import dev.esgen.bench.Settings;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * javac on a generated domain (N aggregates with M events each, as a user would write them), four ways:
 * without esgen's processor ({@code -proc:none}); with it; without it on the same sources plus the files
 * the processor generated; and with {@link EmptyClassProcessor}, which generates one empty class per
 * aggregate. The overhead of the second over the first is what a user waits for; the third shows how much
 * of it is javac compiling the generated code, and the fourth what any processor that generates a file per
 * aggregate costs before doing anything.
 *
 * <p>Each way is timed twice over, as a build meets javac:
 * <ul>
 *   <li><b>in this JVM, warm</b>, as a build daemon or an IDE compiles: the four ways take turns, after as
 *       many rounds of warm-up as are measured, so that the JIT has compiled javac and the processor alike
 *       (after one warm-up, the processor's code still ran interpreted and measured twice its warm cost).
 *       Each compilation is timed by the wall clock and by the compiling thread's CPU time: javac compiles
 *       on the calling thread, and its CPU time moves far less than the wall clock on a shared machine.</li>
 *   <li><b>in a fresh {@code javac} process, cold</b>, as {@code mvn compile} of one module does: start-up,
 *       class loading and interpretation included, by the wall clock.</li>
 * </ul>
 */
public final class CompileTimeBenchmark {

  /** The four ways the domain is compiled. */
  public enum Side {
    WITHOUT("without a processor (`-proc:none`)"),
    WITH("with esgen's processor"),
    GENERATED_WITHOUT_PROCESSOR("without a processor, on the sources plus the files esgen generated"),
    EMPTY_CLASS_PROCESSOR("with a processor that writes one empty class per aggregate");

    private final String label;

    Side(String label) {
      this.label = label;
    }

    /** What the side compiles with, for a report. */
    public String label() {
      return label;
    }
  }

  /** Median wall and compiling-thread CPU milliseconds of one side. */
  public record Timing(double wallMillis, double cpuMillis) {}

  private final Settings settings;

  public CompileTimeBenchmark(Settings settings) {
    this.settings = settings;
  }

  /**
   * @param sources hand-written source files compiled
   * @param generated source files esgen's processor added
   * @param runs measured compilations of each side and regime
   * @param timings every side's medians in this JVM, warm
   * @param freshProcessWallMillis every side's median wall time in a fresh javac process
   */
  public record Result(int aggregates, int eventsPerAggregate, int sources, int generated, int runs,
      Map<Side, Timing> timings, Map<Side, Double> freshProcessWallMillis) {

    public Result {
      timings = Map.copyOf(timings);
      freshProcessWallMillis = Map.copyOf(freshProcessWallMillis);
    }

    /** With esgen's processor over without it, wall clock, warm: what the processor costs a build daemon. */
    public double overhead() {
      return ratio(Side.WITH, false);
    }

    /** {@code side} over the side without a processor, by wall clock or by the compiling thread's CPU, warm. */
    public double ratio(Side side, boolean cpu) {
      Timing over = timings.get(side);
      Timing base = timings.get(Side.WITHOUT);
      return cpu ? over.cpuMillis() / base.cpuMillis() : over.wallMillis() / base.wallMillis();
    }

    /** {@code side} over the side without a processor, in a fresh javac process each. */
    public double freshProcessRatio(Side side) {
      return freshProcessWallMillis.get(side) / freshProcessWallMillis.get(Side.WITHOUT);
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
      Map<Side, List<String>> options = new EnumMap<>(Side.class);
      options.put(Side.WITHOUT, List.of("-proc:none", "-classpath", classpath));
      options.put(Side.WITH, List.of("-processorpath", resource("processor-path.txt"), "-classpath", classpath));
      options.put(Side.GENERATED_WITHOUT_PROCESSOR, options.get(Side.WITHOUT));
      options.put(Side.EMPTY_CLASS_PROCESSOR, List.of("-processor", EmptyClassProcessor.class.getName(),
          "-processorpath", ownLocation(), "-classpath", classpath));
      compile(work, "warm-with", sources, options.get(Side.WITH));
      List<Path> generated;
      try (Stream<Path> files = Files.walk(work.resolve("generated-warm-with"))) {
        generated = files.filter(p -> p.toString().endsWith(".java")).toList();
      }
      List<Path> sourcesAndGenerated = new ArrayList<>(sources);
      sourcesAndGenerated.addAll(generated);
      Map<Side, List<Path>> units = new EnumMap<>(Side.class);
      for (Side side : Side.values()) {
        units.put(side, side == Side.GENERATED_WITHOUT_PROCESSOR ? sourcesAndGenerated : sources);
      }
      int runs = settings.compileRuns();
      Side[] sides = Side.values();
      for (int round = 0; round < runs; round++) {
        for (Side side : sides) {
          compile(work, "warm-" + round + "-" + side, units.get(side), options.get(side));
        }
      }
      Map<Side, List<Compilation>> measured = new EnumMap<>(Side.class);
      Map<Side, List<Long>> fresh = new EnumMap<>(Side.class);
      for (Side side : sides) {
        measured.put(side, new ArrayList<>());
        fresh.put(side, new ArrayList<>());
      }
      for (int run = 0; run < runs; run++) {
        settings.progress().printf("  compile time, %d aggregates: run %d of %d%n", aggregates, run + 1, runs);
        // Each run starts with another side, so that none always follows the same one.
        for (int turn = 0; turn < sides.length; turn++) {
          Side side = sides[(run + turn) % sides.length];
          measured.get(side).add(compile(work, side + "-" + run, units.get(side), options.get(side)));
        }
      }
      for (int run = 0; run < runs; run++) {
        for (int turn = 0; turn < sides.length; turn++) {
          Side side = sides[(run + turn) % sides.length];
          fresh.get(side).add(compileInFreshProcess(work, "fresh-" + side + "-" + run, units.get(side), options.get(side)));
        }
      }
      Map<Side, Timing> timings = new EnumMap<>(Side.class);
      measured.forEach((side, compilations) -> timings.put(side, new Timing(
          median(compilations.stream().mapToLong(Compilation::wallNanos).toArray()) / 1e6,
          median(compilations.stream().mapToLong(Compilation::cpuNanos).toArray()) / 1e6)));
      Map<Side, Double> freshMillis = new EnumMap<>(Side.class);
      fresh.forEach((side, nanos) -> freshMillis.put(side, median(nanos.stream().mapToLong(Long::longValue).toArray()) / 1e6));
      return new Result(aggregates, eventsPerAggregate, sources.size(), generated.size(), runs, timings, freshMillis);
    } finally {
      delete(work);
    }
  }

  /** What one compilation took, by the wall clock and in the compiling thread's CPU time. */
  private record Compilation(long wallNanos, long cpuNanos) {}

  private static Compilation compile(Path work, String name, List<Path> sources, List<String> options) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<String> arguments = arguments(work, name, options);
    StringWriter diagnostics = new StringWriter();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromPaths(sources);
      long start = System.nanoTime();
      long cpuStart = threads.getCurrentThreadCpuTime();
      boolean ok = javac.getTask(diagnostics, files, null, arguments, null, units).call();
      long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
      long elapsed = System.nanoTime() - start;
      if (!ok) {
        throw new IllegalStateException("the generated domain did not compile (" + name + "):\n" + diagnostics);
      }
      return new Compilation(elapsed, cpu);
    }
  }

  /**
   * Compiles in a new process of this JDK's {@code javac}, options and sources in an argument file;
   * returns the process's wall-clock nanoseconds.
   */
  private static long compileInFreshProcess(Path work, String name, List<Path> sources, List<String> options)
      throws IOException {
    List<String> arguments = arguments(work, name, options);
    sources.forEach(source -> arguments.add(source.toString()));
    Path argumentFile = Files.write(work.resolve(name + ".args"), arguments.stream().map(CompileTimeBenchmark::quoted).toList());
    Path output = work.resolve(name + ".out");
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    long start = System.nanoTime();
    Process process = new ProcessBuilder(javac.toString(), "@" + argumentFile).redirectErrorStream(true)
        .redirectOutput(output.toFile()).start();
    try {
      int exit = process.waitFor();
      long elapsed = System.nanoTime() - start;
      if (exit != 0) {
        throw new IllegalStateException("the generated domain did not compile in a javac process (" + name + "):\n"
            + Files.readString(output));
      }
      return elapsed;
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while javac compiled " + name, e);
    }
  }

  /** {@code options} and the output directories of compilation {@code name}. */
  private static List<String> arguments(Path work, String name, List<String> options) throws IOException {
    Path classes = Files.createDirectories(work.resolve("classes-" + name));
    Path generated = Files.createDirectories(work.resolve("generated-" + name));
    List<String> arguments = new ArrayList<>(options);
    arguments.addAll(List.of("--release", "17", "-d", classes.toString(), "-s", generated.toString()));
    return arguments;
  }

  /** An argument file's form of {@code argument}: quoted, so that paths with spaces stay one argument. */
  private static String quoted(String argument) {
    return "\"" + argument.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** Where this class was loaded from: the processor path of {@link EmptyClassProcessor}. */
  private static String ownLocation() {
    try {
      return Path.of(EmptyClassProcessor.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the benchmark's classes", e);
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
