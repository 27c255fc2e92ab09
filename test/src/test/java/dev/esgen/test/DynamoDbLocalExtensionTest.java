package dev.esgen.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs small test classes through the JUnit engine, as a build would, and looks at what they saw and
 * left behind. The classes below are run only from here (Surefire skips nested classes).
 */
class DynamoDbLocalExtensionTest {

  /** What each fixture class saw, by class. */
  static final Map<Class<?>, TablePrefix> SEEN = new ConcurrentHashMap<>();
  static final Map<Class<?>, DynamoDbClient> CLIENTS = new ConcurrentHashMap<>();

  @Test
  void eachClassGetsAClientAndAPrefixAndItsTablesAreDeletedAfterIt() {
    EngineExecutionResults results = run(false, FirstClass.class);

    results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
    TablePrefix prefix = SEEN.get(FirstClass.class);
    assertTrue(prefix.value().startsWith("FirstClass-"), prefix.value());
    try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
      assertTrue(client.listTables().tableNames().stream().noneMatch(prefix::owns),
          "the class's tables should be deleted after it");
    }
  }

  @Test
  void classesRunInParallelOnOneServerWithTablesOfTheSameBaseName() {
    EngineExecutionResults results = run(true, ParallelA.class, ParallelB.class);

    results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
    assertNotEquals(SEEN.get(ParallelA.class), SEEN.get(ParallelB.class));
  }

  @Test
  void aNestedClassSharesItsEnclosingClassesClientAndPrefix() {
    EngineExecutionResults results = run(false, Enclosing.class);

    results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
    assertEquals(SEEN.get(Enclosing.class), SEEN.get(Enclosing.Inner.class));
    assertSame(CLIENTS.get(Enclosing.class), CLIENTS.get(Enclosing.Inner.class));
  }

  @Test
  void theConstructorOfAPerClassInstanceGetsTheClassesClientAndPrefixAndItsTablesAreDeletedAfterIt() {
    EngineExecutionResults results = run(false, PerClass.class);

    results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
    TablePrefix prefix = SEEN.get(PerClass.class);
    assertTrue(prefix.value().startsWith("PerClass-"), prefix.value());
    try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
      assertTrue(client.listTables().tableNames().stream().noneMatch(prefix::owns),
          "the class's tables should be deleted after it");
    }
  }

  @Test
  void aStaticFieldAnswersInTheClassAndRefusesOutsideIt() {
    EngineExecutionResults results = run(false, WithField.class);

    results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    IllegalStateException outside = assertThrows(IllegalStateException.class, () -> WithField.dynamo.client());
    assertTrue(outside.getMessage().contains("serves no test class now"), outside.getMessage());
  }

  private static EngineExecutionResults run(boolean parallel, Class<?>... classes) {
    var request = EngineTestKit.engine("junit-jupiter")
        .configurationParameter("junit.jupiter.execution.parallel.enabled", Boolean.toString(parallel))
        .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
        .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
        .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "2");
    for (Class<?> type : classes) {
      request.selectors(selectClass(type));
    }
    return request.execute();
  }

  private static void createTable(DynamoDbClient client, String table) {
    DynamoDbLocalTest.createTable(client, table);
  }

  @ExtendWith(DynamoDbLocalExtension.class)
  static class FirstClass {

    @BeforeAll
    static void tables(DynamoDbClient client, TablePrefix tables) {
      SEEN.put(FirstClass.class, tables);
      CLIENTS.put(FirstClass.class, client);
      createTable(client, tables.name("journal"));
    }

    @Test
    void seesItsTable(DynamoDbClient client, TablePrefix tables) {
      assertSame(CLIENTS.get(FirstClass.class), client);
      assertTrue(client.listTables().tableNames().contains(tables.name("journal")));
    }

    @Test
    void getsTheSharedServer(DynamoDbLocal server) {
      assertSame(DynamoDbLocal.shared(), server);
    }
  }

  /** Both classes wait for each other inside their test, so they did run at the same time. */
  static final CountDownLatch BOTH_RUNNING = new CountDownLatch(2);

  @ExtendWith(DynamoDbLocalExtension.class)
  static class ParallelA {
    @Test
    void createsJournal(DynamoDbClient client, TablePrefix tables) throws InterruptedException {
      SEEN.put(ParallelA.class, tables);
      createsJournalWhileTheOtherRuns(client, tables);
    }
  }

  @ExtendWith(DynamoDbLocalExtension.class)
  static class ParallelB {
    @Test
    void createsJournal(DynamoDbClient client, TablePrefix tables) throws InterruptedException {
      SEEN.put(ParallelB.class, tables);
      createsJournalWhileTheOtherRuns(client, tables);
    }
  }

  private static void createsJournalWhileTheOtherRuns(DynamoDbClient client, TablePrefix tables)
      throws InterruptedException {
    BOTH_RUNNING.countDown();
    assertTrue(BOTH_RUNNING.await(60, TimeUnit.SECONDS), "the other class did not run at the same time");
    createTable(client, tables.name("journal"));
    List<String> mine = client.listTables().tableNames().stream().filter(tables::owns).toList();
    assertEquals(List.of(tables.name("journal")), mine);
  }

  @ExtendWith(DynamoDbLocalExtension.class)
  static class Enclosing {
    @Test
    void outer(DynamoDbClient client, TablePrefix tables) {
      SEEN.put(Enclosing.class, tables);
      CLIENTS.put(Enclosing.class, client);
    }

    @Nested
    class Inner {
      @Test
      void inner(DynamoDbClient client, TablePrefix tables) {
        SEEN.put(Inner.class, tables);
        CLIENTS.put(Inner.class, client);
      }
    }
  }

  @ExtendWith(DynamoDbLocalExtension.class)
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  static class PerClass {
    private final DynamoDbClient client;
    private final TablePrefix tables;

    // JUnit makes a PER_CLASS instance before the class's @BeforeAll callbacks run.
    PerClass(DynamoDbClient client, TablePrefix tables) {
      this.client = client;
      this.tables = tables;
      createTable(client, tables.name("journal"));
    }

    @Test
    void seesTheTableItsConstructorMade(DynamoDbClient client, TablePrefix tables) {
      assertSame(this.client, client);
      assertEquals(this.tables, tables);
      assertTrue(client.listTables().tableNames().contains(tables.name("journal")));
      SEEN.put(PerClass.class, tables);
    }

    @Test
    void sharesItWithTheOtherTests(DynamoDbClient client) {
      assertSame(this.client, client);
    }
  }

  static class WithField {
    @RegisterExtension
    static final DynamoDbLocalExtension dynamo = new DynamoDbLocalExtension();

    @Test
    void asksTheField() {
      createTable(dynamo.client(), dynamo.tables().name("journal"));
      assertTrue(dynamo.client().listTables().tableNames().contains(dynamo.tables().name("journal")));
      assertSame(DynamoDbLocal.shared(), dynamo.server());
    }
  }
}
