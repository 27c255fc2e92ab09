package dev.esgen.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A DynamoDB Local server on a free loopback port, in memory, with telemetry off. It listens on
 * {@code 127.0.0.1} only, where DynamoDB Local by itself would listen on every interface without checking
 * credentials.
 *
 * <p>DynamoDB Local (Maven {@code software.amazon.dynamodb:DynamoDBLocal}, 3.x) is found on the
 * caller's classpath when the server starts; esgen-test brings it as a runtime dependency, and a version
 * the caller declares takes its place. The server runs in one of two {@linkplain Mode modes}: inside
 * this JVM (the default: quickest to start) or in a JVM of its own, started with this JVM's classpath.
 * Either way it writes nothing into the working directory: it keeps its tables in memory, and with
 * telemetry off it writes no {@code dynamodb-local-metadata.json}. DynamoDB Local extracts the SQLite
 * native library it bundles for the current operating system and architecture into the temporary
 * directory and deletes it when the JVM exits.
 *
 * <p>Tests usually share one server per JVM through {@link #shared()}, or through
 * {@link DynamoDbLocalExtension}, which also gives each test class a client and a table-name prefix of
 * its own.
 *
 * <pre>{@code
 * try (DynamoDbLocal server = DynamoDbLocal.start();
 *     DynamoDbClient client = server.newClient()) {
 *   client.listTables();
 * }
 * }</pre>
 *
 * <p>Instances are thread-safe.
 */
public final class DynamoDbLocal implements AutoCloseable {

  /**
   * The system property that chooses the mode of {@link #start()} and {@link #shared()}:
   * {@code in-process} (the default) or {@code separate-jvm}. For example, in Maven Surefire's
   * {@code <systemPropertyVariables>}: {@code <esgen.dynamodb-local.mode>separate-jvm</esgen.dynamodb-local.mode>}.
   */
  public static final String MODE_PROPERTY = "esgen.dynamodb-local.mode";

  /** A server's port is found free and then bound; someone else may take it in between. */
  private static final int START_ATTEMPTS = 3;

  private static DynamoDbLocal shared;

  private final Mode mode;
  private final URI endpoint;
  private final String version;
  private final RunningServer server;

  /**
   * Where the server runs.
   *
   * <pre>{@code
   * DynamoDbLocal apart = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM);
   * }</pre>
   */
  public enum Mode {
    /**
     * In the calling JVM, beside the caller's own AWS SDK and Jackson (DynamoDB Local 3.x runs on the
     * AWS SDK v2 and Jackson 2 versions esgen uses). Answers its first request sooner than
     * {@link #SEPARATE_JVM}, and a further server in the same JVM starts in milliseconds; its threads,
     * heap and output are the caller's. Its threads are not daemons: a program of your own ends only
     * once the server is closed.
     */
    IN_PROCESS("in-process"),
    /**
     * In a child JVM started with the calling JVM's classpath, working directory a fresh temporary
     * directory, stopped by {@link DynamoDbLocal#close()} (and when the calling JVM exits or is killed).
     * Keeps the server's heap, threads, garbage collection and output apart from the caller, for example
     * from a benchmark's measurements.
     */
    SEPARATE_JVM("separate-jvm");

    private final String propertyValue;

    Mode(String propertyValue) {
      this.propertyValue = propertyValue;
    }

    /** The value of {@link DynamoDbLocal#MODE_PROPERTY} that selects this mode. */
    public String propertyValue() {
      return propertyValue;
    }

    /**
     * The mode {@link DynamoDbLocal#MODE_PROPERTY} names, {@link #IN_PROCESS} when it is not set.
     *
     * @throws IllegalArgumentException when the property names no mode
     */
    public static Mode configured() {
      String value = System.getProperty(MODE_PROPERTY);
      if (value == null || value.isBlank()) {
        return IN_PROCESS;
      }
      for (Mode mode : values()) {
        if (mode.propertyValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
          return mode;
        }
      }
      throw new IllegalArgumentException("system property " + MODE_PROPERTY + " is '" + value
          + "'; use " + IN_PROCESS.propertyValue + " or " + SEPARATE_JVM.propertyValue);
    }
  }

  private DynamoDbLocal(Mode mode, URI endpoint, String version, RunningServer server) {
    this.mode = mode;
    this.endpoint = endpoint;
    this.version = version;
    this.server = server;
  }

  /**
   * Starts a new server in the mode {@link #MODE_PROPERTY} names (in this JVM unless it says otherwise)
   * and returns once it answers requests.
   *
   * @throws IllegalStateException if DynamoDB Local is not on the classpath or does not come up; the
   *     message says what to add, or holds the end of the server's output
   */
  public static DynamoDbLocal start() {
    return start(Mode.configured());
  }

  /**
   * Starts a new server in {@code mode} and returns once it answers requests.
   *
   * @throws IllegalStateException if DynamoDB Local is not on the classpath or does not come up; the
   *     message says what to add, or holds the end of the server's output
   */
  public static DynamoDbLocal start(Mode mode) {
    Objects.requireNonNull(mode, "mode");
    DynamoDbLocalOnClasspath found = DynamoDbLocalOnClasspath.find();
    IllegalStateException failure = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      int port = freeLoopbackPort();
      try {
        RunningServer server = switch (mode) {
          case IN_PROCESS -> InProcessServer.start(found, port);
          case SEPARATE_JVM -> SeparateJvmServer.start(found, port);
        };
        return new DynamoDbLocal(mode, URI.create("http://" + LoopbackServer.HOST + ":" + port), found.version(), server);
      } catch (IllegalStateException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    throw failure;
  }

  /**
   * The server shared by everything in this JVM, started on first use in the mode
   * {@link #MODE_PROPERTY} names and stopped when the JVM exits. Do not close it. Meant for test runs,
   * which end with {@code System.exit}; a program of your own should {@link #start()} and close its
   * server, as an in-process server keeps the JVM alive.
   */
  public static synchronized DynamoDbLocal shared() {
    if (shared == null || !shared.isRunning()) {
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

  /** Where the server runs. */
  public Mode mode() {
    return mode;
  }

  /** The version of DynamoDB Local that runs, for example {@code 3.1.0}, as its jar states it. */
  public String version() {
    return version;
  }

  /** Whether the server is still up: false after {@link #close()}, or if its JVM died. */
  public boolean isRunning() {
    return server.isRunning();
  }

  /**
   * A new client of this server, with the URL-connection HTTP client; close it when done. DynamoDB
   * Local checks neither region nor credentials; they are set so that the SDK looks for neither.
   *
   * <pre>{@code
   * try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
   *   client.listTables();
   * }
   * }</pre>
   */
  public DynamoDbClient newClient() {
    return DynamoDbClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }

  /**
   * A new asynchronous client of this server, on the SDK's Netty HTTP client, set up as {@link #newClient()}
   * so that it sees the same tables; close it when done. For asynchronous repositories:
   *
   * <pre>{@code
   * try (DynamoDbAsyncClient asyncClient = DynamoDbLocal.shared().newAsyncClient()) {
   *   AsyncEventStore async = store.withAsyncClient(asyncClient);   // store: a DynamoDbEventStore
   *   new BankAccountAsyncRepository(async).load(id).join();
   * }
   * }</pre>
   */
  public DynamoDbAsyncClient newAsyncClient() {
    return DynamoDbAsyncClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(NettyNioAsyncHttpClient.builder())
        .build();
  }

  /**
   * A new client of this server's DynamoDB Streams endpoint (the same URL), set up as {@link #newClient()};
   * close it when done.
   *
   * <pre>{@code
   * try (DynamoDbStreamsClient streams = DynamoDbLocal.shared().newStreamsClient()) {
   *   streams.listStreams();
   * }
   * }</pre>
   */
  public DynamoDbStreamsClient newStreamsClient() {
    return DynamoDbStreamsClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }

  /** Stops the server; its tables are gone. Does nothing when it has stopped already. */
  @Override
  public void close() {
    server.stop();
  }

  @Override
  public String toString() {
    return "DynamoDB Local " + version + " at " + endpoint + " (" + mode.propertyValue + ")";
  }

  private static int freeLoopbackPort() {
    // On the address the server binds (LoopbackServer), which the JDK's loopback may not be (::1).
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LoopbackServer.HOST))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }
}
