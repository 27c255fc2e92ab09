package dev.esgen.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * DynamoDB Local in a child JVM started with this JVM's class path: whatever the caller resolved,
 * DynamoDB Local and its dependencies included, so nothing is fixed when esgen-test is built. Its main
 * class is {@link LoopbackServer}, which makes the server as DynamoDB Local's command line would, on
 * loopback only. The class
 * path is handed over as it is, so a manifest-only jar (Maven Surefire's, by default) is expanded by the
 * child as it was by this JVM; it travels in an argument file, which keeps long class paths within
 * Windows' command-line limit.
 *
 * <p>The child's working directory is a fresh temporary directory that also receives its output and
 * the SQLite native library DynamoDB Local extracts; {@link #stop()} removes it.
 */
final class SeparateJvmServer implements RunningServer {

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final String LOG = "server.log";
  /** Made by the child once its server listens: the port is then the child's, not anyone else's. */
  private static final String LISTENING = "listening";

  private final Process process;
  private final Path directory;
  private final Thread stopAtExit;

  private SeparateJvmServer(Process process, Path directory) {
    this.process = process;
    this.directory = directory;
    // A child process outlives its parent unless stopped: stop it when this JVM exits without close().
    this.stopAtExit = new Thread(this::stopProcess, "dynamodb-local-jvm-stop");
  }

  /**
   * @throws IllegalStateException when DynamoDB Local was not loaded from this JVM's class path, or the
   *     child does not answer in time (the message holds the end of its output)
   */
  static SeparateJvmServer start(DynamoDbLocalOnClasspath found, int port) {
    if (found.serverRunner().getClassLoader() != ClassLoader.getSystemClassLoader()) {
      throw new IllegalStateException("DynamoDB Local was loaded by " + found.serverRunner().getClassLoader()
          + ", not from this JVM's class path (java.class.path), which is all a separate JVM gets: start it"
          + " with Mode.IN_PROCESS");
    }
    Path directory;
    Process process;
    try {
      directory = Files.createTempDirectory("dynamodb-local-");
      Path arguments = directory.resolve("java-arguments");
      Files.write(arguments, javaArguments(directory, port).stream().map(SeparateJvmServer::quoted).toList(),
          StandardCharsets.UTF_8);
      ProcessBuilder builder =
          new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "@" + arguments)
              .directory(directory.toFile())
              .redirectErrorStream(true)
              .redirectOutput(directory.resolve(LOG).toFile());
      // Standard input stays a pipe from this JVM: the child ends when it ends, also when this JVM is killed
      // and runs no shutdown hook (LoopbackServer.main).
      // The command line already says so; the variable covers DynamoDB Local versions that only read it.
      builder.environment().put("DDB_LOCAL_TELEMETRY", "0");
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start a JVM for DynamoDB Local", e);
    }
    SeparateJvmServer server = new SeparateJvmServer(process, directory);
    Runtime.getRuntime().addShutdownHook(server.stopAtExit);
    try {
      server.awaitListening(port);
    } catch (IllegalStateException e) {
      server.stop();
      throw e;
    }
    return server;
  }

  private static List<String> javaArguments(Path directory, int port) {
    List<String> arguments = new ArrayList<>();
    arguments.add("-Xmx512m");
    // DynamoDB Local loads SQLite with System.load, a restricted method: from JDK 24 on a JVM that has not
    // enabled native access warns about it (into the log whose end a failed start reports), and a later JDK
    // will refuse it. JDK 17 accepts the flag.
    arguments.add("--enable-native-access=ALL-UNNAMED");
    arguments.add("-Dorg.sqlite.tmpdir=" + directory);
    arguments.add("-cp");
    arguments.add(System.getProperty("java.class.path"));
    arguments.add(LoopbackServer.class.getName());
    arguments.add(Integer.toString(port));
    arguments.add(directory.resolve(LISTENING).toString());
    return arguments;
  }

  /** One argument of a {@code java @file}: quoted, with backslashes (Windows paths) and quotes escaped. */
  private static String quoted(String argument) {
    return "\"" + argument.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Override
  public boolean isRunning() {
    return process.isAlive();
  }

  @Override
  public synchronized void stop() {
    try {
      Runtime.getRuntime().removeShutdownHook(stopAtExit);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running or about to; stopping twice is harmless.
    }
    stopProcess();
  }

  private void stopProcess() {
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    deleteDirectory(directory);
  }

  /** Deletes the child's working directory: by this JVM after the child, or by the child when this JVM is gone. */
  static void deleteDirectory(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException leftOver) {
      // A file a JVM still held (Windows) stays in the temporary directory; harmless there.
    }
  }

  /**
   * Waits for the child to say its server listens. Not by asking the port: the port was free when it was
   * chosen, and a server another process started on it meanwhile (another Surefire fork's) would answer
   * while this child fails to bind and exits.
   */
  private void awaitListening(int port) {
    Path listening = directory.resolve(LISTENING);
    Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (Files.exists(listening)) {
        return;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException("DynamoDB Local's JVM exited with code " + process.exitValue()
            + " before it listened on port " + port + ":\n" + logTail());
      }
      pause();
      if (Thread.currentThread().isInterrupted()) {
        throw new IllegalStateException("interrupted while waiting for DynamoDB Local");
      }
    }
    throw new IllegalStateException("DynamoDB Local did not listen on port " + port + " within " + STARTUP_TIMEOUT
        + ":\n" + logTail());
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(directory.resolve(LOG), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
