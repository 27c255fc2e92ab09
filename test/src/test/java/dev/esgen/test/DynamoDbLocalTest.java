package dev.esgen.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

class DynamoDbLocalTest {

  @ParameterizedTest
  @EnumSource(DynamoDbLocal.Mode.class)
  void startsOnLoopbackServesRequestsAndStops(DynamoDbLocal.Mode mode) throws Exception {
    DynamoDbLocal server = DynamoDbLocal.start(mode);
    int port = server.endpoint().getPort();
    try (server; DynamoDbClient client = server.newClient()) {
      assertEquals(mode, server.mode());
      assertEquals("127.0.0.1", server.endpoint().getHost());
      assertTrue(server.isRunning());
      createTable(client, "launcher-check");
      assertEquals(List.of("launcher-check"), client.listTables().tableNames());
      assertThrows(ResourceNotFoundException.class, () -> client.describeTable(b -> b.tableName("absent")));
    }
    assertFalse(server.isRunning());
    assertFalse(isListening(port), "the server should be gone after close()");
  }

  /**
   * DynamoDB Local checks no credentials, so a server reachable from the network would hand the test's
   * tables to any host there: it listens on loopback only, whatever its own default.
   */
  @ParameterizedTest
  @EnumSource(DynamoDbLocal.Mode.class)
  void isNotReachableOnTheMachinesOtherAddresses(DynamoDbLocal.Mode mode) throws Exception {
    List<InetAddress> others = NetworkInterface.networkInterfaces()
        .flatMap(NetworkInterface::inetAddresses)
        .filter(address -> !address.isLoopbackAddress() && !address.isLinkLocalAddress())
        .toList();
    assumeFalse(others.isEmpty(), "this machine has no address but loopback");
    try (DynamoDbLocal server = DynamoDbLocal.start(mode)) {
      int port = server.endpoint().getPort();
      assertTrue(isListening(InetAddress.getLoopbackAddress(), port));
      for (InetAddress address : others) {
        assertFalse(isListening(address, port), "DynamoDB Local answers on " + address + ":" + port);
      }
    }
  }

  @Test
  void aConditionFailedInATransactionCancelsItAsDynamoDbDoes() {
    try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
      String table = TablePrefix.fresh("DynamoDbLocalTest").name("conditions");
      createTable(client, table);
      TransactWriteItem putIfAbsent = TransactWriteItem.builder()
          .put(p -> p.tableName(table).item(Map.of("k", AttributeValue.fromS("a"))).conditionExpression("attribute_not_exists(k)"))
          .build();
      client.transactWriteItems(b -> b.transactItems(putIfAbsent));

      TransactionCanceledException cancelled =
          assertThrows(TransactionCanceledException.class, () -> client.transactWriteItems(b -> b.transactItems(putIfAbsent)));
      assertEquals(List.of("ConditionalCheckFailed"),
          cancelled.cancellationReasons().stream().map(CancellationReason::code).toList());
    }
  }

  @Test
  void twoServersInOneJvmKeepTheirTablesApart() {
    try (DynamoDbLocal first = DynamoDbLocal.start(DynamoDbLocal.Mode.IN_PROCESS);
        DynamoDbLocal second = DynamoDbLocal.start(DynamoDbLocal.Mode.IN_PROCESS);
        DynamoDbClient firstClient = first.newClient();
        DynamoDbClient secondClient = second.newClient()) {
      assertNotEquals(first.endpoint(), second.endpoint());
      createTable(firstClient, "only-in-first");
      assertEquals(List.of("only-in-first"), firstClient.listTables().tableNames());
      assertEquals(List.of(), secondClient.listTables().tableNames());
    }
  }

  /**
   * A port is found free and then bound, and another process (another Surefire fork's server) may bind it
   * in between. A separate JVM that could not bind it must fail the start, which then tries a fresh port,
   * rather than pass the server that answers there off as its own.
   */
  @Test
  void aSeparateJvmDoesNotPassAnotherServerOnItsPortOffAsItsOwn() {
    try (DynamoDbLocal other = DynamoDbLocal.start(DynamoDbLocal.Mode.IN_PROCESS)) {
      int taken = other.endpoint().getPort();
      IllegalStateException failed = assertThrows(IllegalStateException.class,
          () -> SeparateJvmServer.start(DynamoDbLocalOnClasspath.find(), taken).stop());
      assertTrue(failed.getMessage().contains("before it listened on port " + taken), failed.getMessage());
    }
  }

  /**
   * A test JVM killed outright (kill -9, the out-of-memory killer, Surefire's shutdown=kill) runs no
   * shutdown hook to stop its separate JVM: that JVM must notice and stop by itself, not serve on for
   * good. The test JVM here is a JVM of its own, killed once its server answers.
   */
  @Test
  void aSeparateJvmStopsWhenTheTestJvmIsKilled() throws Exception {
    Process testJvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), StartsASeparateJvm.class.getName())
        .redirectErrorStream(true)
        .start();
    List<ProcessHandle> started = List.of();
    try {
      String output = new BufferedReader(new InputStreamReader(testJvm.getInputStream(), StandardCharsets.UTF_8))
          .lines().filter(line -> line.startsWith("port ")).findFirst().orElseThrow();
      int port = Integer.parseInt(output.substring("port ".length()));
      started = testJvm.descendants().toList();
      assertTrue(isListening(port));
      // The child's command line is java @<its working directory>/java-arguments.
      Path workingDirectory = started.stream()
          .flatMap(child -> child.info().arguments().stream().flatMap(Arrays::stream))
          .filter(argument -> argument.startsWith("@"))
          .map(argument -> Path.of(argument.substring(1)).getParent())
          .findFirst().orElseThrow();

      testJvm.destroyForcibly().waitFor();
      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      while (isListening(port) && Instant.now().isBefore(deadline)) {
        Thread.sleep(100);
      }
      assertFalse(isListening(port), "DynamoDB Local's JVM outlived the test JVM that started it");
      assertFalse(Files.exists(workingDirectory), "left behind: " + workingDirectory);
    } finally {
      testJvm.destroyForcibly();
      started.forEach(ProcessHandle::destroyForcibly);
    }
  }

  /**
   * DynamoDB Local loads SQLite, on the first request, with System.load: a JVM that has not enabled native
   * access warns about it from JDK 24 on and will refuse it on a later JDK. The separate JVM enables it.
   */
  @Test
  void aSeparateJvmLoadsSqliteWithNativeAccessEnabled() throws IOException {
    try (DynamoDbLocal server = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM);
        DynamoDbClient client = server.newClient()) {
      createTable(client, "loads-sqlite");
      Path log = workingDirectoryOfTheChildOn(server.endpoint().getPort()).resolve("server.log");
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertFalse(output.contains("restricted method"), output);
    }
  }

  /** The working directory of this JVM's child {@code java @<directory>/java-arguments} serving on {@code port}. */
  private static Path workingDirectoryOfTheChildOn(int port) throws IOException {
    List<Path> argumentFiles = ProcessHandle.current().children()
        .flatMap(child -> child.info().arguments().stream().flatMap(Arrays::stream))
        .filter(argument -> argument.startsWith("@"))
        .map(argument -> Path.of(argument.substring(1)))
        .toList();
    for (Path arguments : argumentFiles) {
      if (Files.readAllLines(arguments, StandardCharsets.UTF_8).contains("\"" + port + "\"")) {
        return arguments.getParent();
      }
    }
    throw new AssertionError("no child JVM serves on port " + port + " (argument files: " + argumentFiles + ")");
  }

  /** Starts a server in a separate JVM, says its port, and waits to be killed. */
  static final class StartsASeparateJvm {
    public static void main(String[] args) throws Exception {
      DynamoDbLocal server = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM);
      System.out.println("port " + server.endpoint().getPort());
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  @Test
  void sharedIsOneServerPerJvmInTheConfiguredMode() {
    DynamoDbLocal shared = DynamoDbLocal.shared();
    assertSame(shared, DynamoDbLocal.shared());
    assertEquals(DynamoDbLocal.Mode.configured(), shared.mode());
    assertTrue(shared.isRunning());
  }

  @Test
  void runsTheDynamoDbLocalOfTheClasspathAndSaysWhichVersion() {
    DynamoDbLocalOnClasspath found = DynamoDbLocalOnClasspath.find();
    assertTrue(found.jar().orElseThrow().getFileName().toString().startsWith("DynamoDBLocal-"), found.jar().toString());
    assertTrue(DynamoDbLocal.shared().version().matches("3\\.\\d+\\.\\d+"), DynamoDbLocal.shared().version());
    assertEquals(found.version(), DynamoDbLocal.shared().version());
  }

  /**
   * DynamoDB Local 3.x carries SQLite natives for these platforms in its jar and picks one by os.name and
   * os.arch itself, so users add no native artifact. docs/testing-with-dynamodb-local.md lists the same.
   */
  @Test
  void theJarBundlesSqliteForTheDocumentedPlatforms() throws IOException {
    Path jar = DynamoDbLocalOnClasspath.find().jar().orElseThrow();
    String natives = "software/amazon/dynamodb/services/local/shared/access/sqlite/native/";
    try (JarFile file = new JarFile(jar.toFile())) {
      List<String> bundled = file.stream()
          .map(entry -> entry.getName())
          .filter(name -> name.startsWith(natives) && !name.endsWith("/"))
          .map(name -> name.substring(natives.length()))
          .sorted()
          .collect(Collectors.toList());
      assertTrue(bundled.containsAll(List.of(
          "Linux/aarch64/libsqlite4java.so",
          "Linux/x86_64/libsqlite4java.so",
          "Mac/aarch64/libsqlite4java.dylib",
          "Mac/x86_64/libsqlite4java.dylib",
          "Windows/x86_64/sqlite4java.dll")), bundled.toString());
    }
  }

  /** A separate JVM works in a temporary directory; a server in this JVM shares its working directory. */
  @Test
  void writesNoTelemetryFileIntoTheWorkingDirectory() {
    try (DynamoDbLocal inProcess = DynamoDbLocal.start(DynamoDbLocal.Mode.IN_PROCESS);
        DynamoDbClient client = inProcess.newClient()) {
      client.listTables();
    }
    // DynamoDB Local with telemetry on writes this file into user.dir when it starts.
    assertFalse(Files.exists(Path.of(System.getProperty("user.dir"), "dynamodb-local-metadata.json")));
  }

  /**
   * A server in this JVM starts without printing its configuration, and without taking standard output
   * from anything else: Log4j 2 (which DynamoDB Local brings, and which a user's tests may log through)
   * configures its console appender on first use, often while DynamoDB Local starts, and that appender
   * must still write to standard output afterwards. Run in a JVM of its own, where Log4j is not
   * configured yet.
   */
  @Test
  void logOutputSetUpWhileAServerStartsStillReachesStandardOutput() throws Exception {
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), LogsAfterAStart.class.getName())
        .redirectErrorStream(true)
        .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), output);
    assertTrue(output.contains("logged after the start"), "lost: " + output);
    assertFalse(output.contains("Initializing DynamoDB Local"), output);
  }

  /** Starts a server in this JVM, then logs through Log4j 2 for the first time. */
  static final class LogsAfterAStart {
    public static void main(String[] args) throws Exception {
      DynamoDbLocal server = DynamoDbLocal.start(DynamoDbLocal.Mode.IN_PROCESS);
      try {
        // Log4j is DynamoDB Local's dependency, at run time only: reached by reflection.
        Object logger = Class.forName("org.apache.logging.log4j.LogManager")
            .getMethod("getLogger", String.class).invoke(null, "esgen-test");
        Class.forName("org.apache.logging.log4j.Logger")
            .getMethod("warn", String.class).invoke(logger, "logged after the start");
      } finally {
        server.close();
      }
    }
  }

  @Test
  void theModePropertyChoosesTheMode() {
    String before = System.getProperty(DynamoDbLocal.MODE_PROPERTY);
    try {
      System.clearProperty(DynamoDbLocal.MODE_PROPERTY);
      assertEquals(DynamoDbLocal.Mode.IN_PROCESS, DynamoDbLocal.Mode.configured());
      System.setProperty(DynamoDbLocal.MODE_PROPERTY, "separate-jvm");
      assertEquals(DynamoDbLocal.Mode.SEPARATE_JVM, DynamoDbLocal.Mode.configured());
      System.setProperty(DynamoDbLocal.MODE_PROPERTY, "In-Process");
      assertEquals(DynamoDbLocal.Mode.IN_PROCESS, DynamoDbLocal.Mode.configured());
      System.setProperty(DynamoDbLocal.MODE_PROPERTY, "docker");
      IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, DynamoDbLocal.Mode::configured);
      assertTrue(wrong.getMessage().contains("in-process or separate-jvm"), wrong.getMessage());
    } finally {
      if (before == null) {
        System.clearProperty(DynamoDbLocal.MODE_PROPERTY);
      } else {
        System.setProperty(DynamoDbLocal.MODE_PROPERTY, before);
      }
    }
  }

  static void createTable(DynamoDbClient client, String table) {
    client.createTable(b -> b
        .tableName(table)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(AttributeDefinition.builder().attributeName("k").attributeType(ScalarAttributeType.S).build())
        .keySchema(KeySchemaElement.builder().attributeName("k").keyType(KeyType.HASH).build()));
  }

  private static boolean isListening(int port) {
    return isListening(InetAddress.getLoopbackAddress(), port);
  }

  private static boolean isListening(InetAddress address, int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, port), 2_000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
