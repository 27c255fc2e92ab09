package dev.esgen.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * How long {@link DynamoDbLocal#start(DynamoDbLocal.Mode)} takes in each mode, each run in a fresh JVM
 * as in a test run: {@code mvn -pl test -am package -DskipTests -Pstart-time} (runs 7 times per mode,
 * alternating). Prints each run and the medians; asserts nothing.
 *
 * <p>Per run: <em>start</em> is the call until the server answers; <em>first request</em> a new client's
 * first {@code ListTables}, which in process also pays for the server's first request (its SQLite and
 * request classes load then); <em>first answer</em> the two together, what a test class waits before its
 * first assertion; <em>second start</em> another server started in the same JVM afterwards, which finds
 * DynamoDB Local's classes loaded (in process) or still pays a JVM (separate).
 */
final class StartTimeMeasurement {

  private static final String ONCE = "once";

  private StartTimeMeasurement() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length == 2 && args[0].equals(ONCE)) {
      once(DynamoDbLocal.Mode.valueOf(args[1]));
      return;
    }
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    Map<DynamoDbLocal.Mode, List<long[]>> figures = new EnumMap<>(DynamoDbLocal.Mode.class);
    for (int run = 1; run <= runs; run++) {
      for (DynamoDbLocal.Mode mode : DynamoDbLocal.Mode.values()) {
        long[] millis = inFreshJvm(mode);
        figures.computeIfAbsent(mode, m -> new ArrayList<>()).add(millis);
        System.out.printf("run %d %-13s start %5d ms, first request %5d ms, first answer %5d ms, second start %5d ms%n",
            run, mode.propertyValue(), millis[0], millis[1], millis[0] + millis[1], millis[2]);
      }
    }
    for (Map.Entry<DynamoDbLocal.Mode, List<long[]>> entry : figures.entrySet()) {
      List<long[]> all = entry.getValue();
      System.out.printf("median %-13s start %5d ms, first request %5d ms, first answer %5d ms, second start %5d ms%n",
          entry.getKey().propertyValue(), median(all, run -> run[0]), median(all, run -> run[1]),
          median(all, run -> run[0] + run[1]), median(all, run -> run[2]));
    }
  }

  private static long[] inFreshJvm(DynamoDbLocal.Mode mode) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), StartTimeMeasurement.class.getName(), ONCE, mode.name())
        .redirectErrorStream(true)
        .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException("measuring " + mode + " failed:\n" + output);
    }
    String last = output.lines().filter(line -> line.startsWith("millis ")).reduce((a, b) -> b)
        .orElseThrow(() -> new IllegalStateException("no figures from " + mode + ":\n" + output));
    return Arrays.stream(last.substring("millis ".length()).split(" ")).mapToLong(Long::parseLong).toArray();
  }

  private static void once(DynamoDbLocal.Mode mode) {
    long start = System.nanoTime();
    long started;
    long answered;
    try (DynamoDbLocal server = DynamoDbLocal.start(mode)) {
      started = System.nanoTime();
      try (DynamoDbClient client = server.newClient()) {
        client.listTables();
      }
      answered = System.nanoTime();
    }
    long secondStart = System.nanoTime();
    DynamoDbLocal second = DynamoDbLocal.start(mode);
    long secondStarted = System.nanoTime();
    second.close();
    System.out.printf("millis %d %d %d%n", (started - start) / 1_000_000, (answered - started) / 1_000_000,
        (secondStarted - secondStart) / 1_000_000);
  }

  private static long median(List<long[]> runs, ToLongFunction<long[]> figure) {
    long[] values = runs.stream().mapToLong(figure).sorted().toArray();
    return values[values.length / 2];
  }
}
