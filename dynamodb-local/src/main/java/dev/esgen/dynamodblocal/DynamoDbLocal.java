package dev.esgen.dynamodblocal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A DynamoDB Local server running in its own JVM on a free loopback port, in memory.
 *
 * <p>Tests usually share one server per JVM through {@link #shared()}, or through
 * {@link DynamoDbLocalExtension}; it is stopped when the JVM exits.
 *
 * <pre>{@code
 * try (DynamoDbLocal server = DynamoDbLocal.start()) {
 *   DynamoDbClient client = DynamoDbClient.builder()
 *       .endpointOverride(server.endpoint())
 *       .region(Region.US_EAST_1)                      // any region and credentials will do
 *       .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
 *       .build();
 *   client.listTables();
 * }
 * }</pre>
 *
 * <p>This class uses only the JDK, so that none of DynamoDB Local's own dependencies (an older AWS
 * SDK and Jackson) meet the caller's. The server's classpath is the one Maven resolved when this module was built (written into the
 * resource {@code server-classpath.txt}), so the launcher works wherever that build ran.
 */
public final class DynamoDbLocal implements AutoCloseable {

  private static final String CLASSPATH_RESOURCE = "server-classpath.txt";
  private static final String SERVER_MAIN = "com.amazonaws.services.dynamodbv2.local.main.ServerRunner";
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
  private static final int START_ATTEMPTS = 3;

  private static DynamoDbLocal shared;

  private final Process process;
  private final URI endpoint;
  private final Path log;

  private DynamoDbLocal(Process process, URI endpoint, Path log) {
    this.process = process;
    this.endpoint = endpoint;
    this.log = log;
  }

  /**
   * Starts a new server and waits until it answers requests.
   *
   * @throws IllegalStateException if it does not come up; the message holds the end of its output
   */
  public static DynamoDbLocal start() {
    IllegalStateException last = null;
    // A free port found by binding and releasing it can be taken by someone else before the server
    // binds it; a few attempts make that race harmless.
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      try {
        return startOnce(freeLoopbackPort());
      } catch (IllegalStateException e) {
        last = e;
      }
    }
    throw last;
  }

  /** The server shared by everything in this JVM, started on first use and stopped at JVM exit. */
  public static synchronized DynamoDbLocal shared() {
    if (shared == null || !shared.process.isAlive()) {
      DynamoDbLocal started = start();
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "dynamodb-local-stop"));
      shared = started;
    }
    return shared;
  }

  /** Where the server listens, for example {@code http://127.0.0.1:41234}. */
  public URI endpoint() {
    return endpoint;
  }

  /** Stops the server and waits for its JVM to exit. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException ignored) {
      // A leftover log file in the temp directory is harmless.
    }
  }

  private static DynamoDbLocal startOnce(int port) {
    List<String> classpath = serverClasspath();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx512m");
    nativeLibraryDirectory(classpath).ifPresent(dir -> command.add("-Dsqlite4java.library.path=" + dir));
    command.add("-cp");
    command.add(String.join(java.io.File.pathSeparator, classpath));
    command.add(SERVER_MAIN);
    command.addAll(List.of("-inMemory", "-port", Integer.toString(port)));
    Path log;
    Process process;
    try {
      log = Files.createTempFile("dynamodb-local-", ".log");
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start DynamoDB Local: " + command, e);
    }
    URI endpoint = URI.create("http://127.0.0.1:" + port);
    DynamoDbLocal server = new DynamoDbLocal(process, endpoint, log);
    try {
      awaitReady(server);
    } catch (IllegalStateException e) {
      server.close();
      throw e;
    }
    return server;
  }

  private static void awaitReady(DynamoDbLocal server) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    // Any HTTP answer means the server is listening; an unsigned request gets a 400.
    HttpRequest probe =
        HttpRequest.newBuilder(server.endpoint)
            .timeout(Duration.ofSeconds(2))
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (!server.process.isAlive()) {
        throw new IllegalStateException(
            "DynamoDB Local exited with code " + server.process.exitValue() + ":\n" + server.logTail());
      }
      try {
        http.send(probe, HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException notYet) {
        sleep(Duration.ofMillis(100));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for DynamoDB Local", e);
      }
    }
    throw new IllegalStateException(
        "DynamoDB Local did not answer on " + server.endpoint + " within " + STARTUP_TIMEOUT + ":\n"
            + server.logTail());
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }

  private static List<String> serverClasspath() {
    try (InputStream in = DynamoDbLocal.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "resource " + CLASSPATH_RESOURCE + " is missing: build esgen-dynamodb-local with Maven,"
                + " which writes it");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      List<String> entries = Arrays.asList(text.split(java.io.File.pathSeparator));
      for (String entry : entries) {
        if (!Files.exists(Path.of(entry))) {
          throw new IllegalStateException(
              "DynamoDB Local's classpath names " + entry + ", which does not exist: rebuild"
                  + " esgen-dynamodb-local so Maven downloads it again");
        }
      }
      return entries;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** sqlite4java loads its native library from this directory; Maven keeps it apart from the jar. */
  private static Optional<Path> nativeLibraryDirectory(List<String> classpath) {
    String os = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT);
    String arch = System.getProperty("os.arch");
    String wanted;
    if (os.contains("mac")) {
      wanted = "libsqlite4java-osx";
    } else if (os.contains("win")) {
      wanted = arch.contains("64") ? "sqlite4java-win32-x64" : "sqlite4java-win32-x86";
    } else {
      wanted = arch.contains("64") ? "libsqlite4java-linux-amd64" : "libsqlite4java-linux-i386";
    }
    return classpath.stream()
        .map(Path::of)
        .filter(p -> p.getFileName().toString().startsWith(wanted))
        .map(Path::getParent)
        .findFirst();
  }

  private static int freeLoopbackPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
