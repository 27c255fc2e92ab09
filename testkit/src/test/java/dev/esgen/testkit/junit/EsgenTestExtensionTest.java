package dev.esgen.testkit.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.test.DynamoDbLocal;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberAsyncRepository;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import dev.esgen.testkit.memory.InMemoryEventStore;
import dev.esgen.testkit.time.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.mockito.Mock;
import org.mockito.Mockito;
import org.mockito.junit.jupiter.MockitoExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Runs small test classes through the JUnit engine, as a build would, and looks at what they were given.
 * The classes below are run only from here (Surefire skips nested classes).
 */
class EsgenTestExtensionTest {

  /** What each fixture class (or test) was given, by name. */
  static final Map<String, EventStore> STORES = new ConcurrentHashMap<>();
  static final Map<String, MutableClock> CLOCKS = new ConcurrentHashMap<>();
  static final Map<String, Backend> BACKENDS = new ConcurrentHashMap<>();
  static final Map<String, Instant> STARTS = new ConcurrentHashMap<>();
  static final Map<String, AsyncEventStore> ASYNC_STORES = new ConcurrentHashMap<>();

  @Test
  void aClassGetsAnInMemoryStoreAndAClockAtTheAnnotationsStartByDefault() {
    run(Map.of(), InMemoryByDefault.class).testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));

    assertInstanceOf(InMemoryEventStore.class, STORES.get("default"));
    assertEquals(Instant.parse("2026-01-01T00:00:00Z"), STARTS.get("default"));
    assertEquals(Backend.IN_MEMORY, BACKENDS.get("default"));
  }

  @Test
  void theConfigurationParameterSwitchesToDynamoDbLocalWhereTablesAreMadeOnFirstUseAndDeletedAfter() {
    run(Map.of(Backend.PROPERTY, "dynamodb-local"), InMemoryByDefault.class)
        .testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));

    TablesOnFirstUse store = assertInstanceOf(TablesOnFirstUse.class, STORES.get("default"));
    assertEquals(Backend.DYNAMODB_LOCAL, BACKENDS.get("default"));
    String journal = store.config().journalTable();
    assertTrue(journal.startsWith("InMemoryByDefault-"), journal);
    try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
      assertTrue(client.listTables().tableNames().stream().noneMatch(name -> name.equals(journal)),
          "the class's tables are deleted after it");
    }
  }

  @Test
  void anExplicitBackendWinsOverTheConfigurationParameter() {
    run(Map.of(Backend.PROPERTY, "dynamodb-local"), PinnedInMemory.class)
        .testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));

    assertInstanceOf(InMemoryEventStore.class, STORES.get("pinned"));
    assertEquals(Instant.parse("2030-06-01T12:00:00Z"), CLOCKS.get("pinned").instant());
  }

  @Test
  void aClassWithOneInstanceGetsTheStoreInItsConstructorAndLifecycleMethodsAlike() {
    run(Map.of(), OneInstance.class).testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));

    assertSame(STORES.get("one-instance-constructor"), STORES.get("one-instance-before-all"));
    assertSame(STORES.get("one-instance-constructor"), STORES.get("one-instance-test"));
  }

  @Test
  void theTablesAreDeletedAlsoWhenTheConstructorOfAClassWithOneInstanceFails() {
    run(Map.of(), FailingConstructor.class).containerEvents().assertThatEvents()
        .haveExactly(1, finishedWithFailure(instanceOf(IllegalStateException.class)));

    String journal = ((TablesOnFirstUse) STORES.get("failing-constructor")).config().journalTable();
    try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
      assertTrue(client.listTables().tableNames().stream().noneMatch(name -> name.equals(journal)),
          "the class's tables are deleted after it");
    }
  }

  @Test
  void aNestedClassSharesItsEnclosingClassesStoreAndClock() {
    run(Map.of(), Enclosing.class).testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));

    assertSame(STORES.get("outer"), STORES.get("inner"));
    assertSame(CLOCKS.get("outer"), CLOCKS.get("inner"));
  }

  @Test
  void aNestedClassWithEsgenTestOfItsOwnGetsItsOwnStoreWhichItsNestedClassesShare() {
    run(Map.of(), EnclosingWithOwnNested.class).testEvents().assertStatistics(stats -> stats.started(3).succeeded(3));

    assertInstanceOf(InMemoryEventStore.class, STORES.get("own-outer"));
    TablesOnFirstUse inner = assertInstanceOf(TablesOnFirstUse.class, STORES.get("own-inner"));
    assertEquals(Instant.parse("2031-01-01T00:00:00Z"), STARTS.get("own-inner"));
    assertEquals(Instant.parse("2026-01-01T00:00:00Z"), STARTS.get("own-outer"));
    assertSame(STORES.get("own-inner"), STORES.get("own-deeper"));
    String journal = inner.config().journalTable();
    try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
      assertTrue(client.listTables().tableNames().stream().noneMatch(name -> name.equals(journal)),
          "the nested class's tables are deleted after it");
    }
  }

  @Test
  void aNestedClassWithEsgenTestOfItsOwnGetsItsOwnStoreAlsoUnderAProgrammaticExtension() {
    run(Map.of(), ProgrammaticWithOwnNested.class).testEvents()
        .assertStatistics(stats -> stats.started(2).succeeded(2));

    assertInstanceOf(InMemoryEventStore.class, STORES.get("field-outer"));
    assertEquals(Instant.parse("2031-01-01T00:00:00Z"), STARTS.get("field-outer"));
    TablesOnFirstUse inner = assertInstanceOf(TablesOnFirstUse.class, STORES.get("field-inner"));
    assertEquals(Instant.parse("2032-01-01T00:00:00Z"), STARTS.get("field-inner"));
    assertSame(ProgrammaticWithOwnNested.MAPPER, inner.objectMapper(), "the field's store settings still apply");
  }

  @Test
  void classesInParallelGetStoresOfTheirOwnAndTestsOfAClassShareOneConcurrently() {
    EngineExecutionResults results = run(Map.of(
        "junit.jupiter.execution.parallel.enabled", "true",
        "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
        "junit.jupiter.execution.parallel.config.strategy", "fixed",
        "junit.jupiter.execution.parallel.config.fixed.parallelism", "4"), ParallelA.class, ParallelB.class);

    results.testEvents().assertStatistics(stats -> stats.started(4).succeeded(4));
    assertSame(STORES.get("a-first"), STORES.get("a-second"));
    assertSame(STORES.get("b-first"), STORES.get("b-second"));
    assertNotSame(STORES.get("a-first"), STORES.get("b-first"));
  }

  @Test
  void aProgrammaticExtensionAppliesItsConfigAndBackend() {
    run(Map.of(Backend.PROPERTY, "dynamodb-local"), Programmatic.class)
        .testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));

    assertSame(Programmatic.MAPPER, STORES.get("programmatic").objectMapper());
    assertInstanceOf(InMemoryEventStore.class, STORES.get("programmatic"));
    assertEquals(Instant.parse("2031-01-01T00:00:00Z"), CLOCKS.get("programmatic").instant());
  }

  @Test
  void aBadBackendOrClockStartFailsTheClassSayingWhatToWrite() {
    run(Map.of(Backend.PROPERTY, "postgres"), InMemoryByDefault.class).containerEvents().assertThatEvents()
        .haveExactly(1, finishedWithFailure(instanceOf(IllegalArgumentException.class),
            message("esgen.test.backend is 'postgres'; use in-memory or dynamodb-local")));
    run(Map.of(), BadClock.class).containerEvents().assertThatEvents()
        .haveExactly(1, finishedWithFailure(instanceOf(ExtensionConfigurationException.class),
            message(m -> m.contains("is no ISO-8601 instant"))));
  }

  @Test
  void onDynamoDbLocalAnAsyncStoreSharesTheClassesTablesAndCreatesThemWhenItComesFirst() {
    run(Map.of(), AsyncFirst.class).testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));

    AsyncEventStore async = ASYNC_STORES.get("async-first");
    assertTrue(async.toString().contains(((TablesOnFirstUse) STORES.get("async-first")).config().journalTable()),
        async.toString());
    try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
      String journal = ((TablesOnFirstUse) STORES.get("async-first")).config().journalTable();
      assertTrue(client.listTables().tableNames().stream().noneMatch(name -> name.equals(journal)),
          "the class's tables are deleted after it");
    }
  }

  @Test
  void inMemoryAnAsyncStoreIsTheStoresAsynchronousTwin() {
    run(Map.of(), AsyncInMemory.class).testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));

    InMemoryEventStore store = assertInstanceOf(InMemoryEventStore.class, STORES.get("async-in-memory"));
    assertSame(store.async(), ASYNC_STORES.get("async-in-memory"));
  }

  @Test
  void aParameterMockitoIsAskedForIsLeftToMockito() {
    run(Map.of(), BesideMockito.class).testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));

    assertTrue(Mockito.mockingDetails(STORES.get("mockito")).isMock());
    assertInstanceOf(InMemoryEventStore.class, STORES.get("esgen"));
  }

  @Test
  void eachTestStartsAtTheClocksStartWhateverAnEarlierTestMovedItTo() {
    run(Map.of(), MovesTheClock.class).testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
  }

  @Test
  void anInMemoryStoreParameterIsTheClassesStoreInMemoryAndSaysWhatToDoOnDynamoDbLocal() {
    run(Map.of(), AsksForTheInMemoryStore.class).testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    assertSame(STORES.get("in-memory-store"), STORES.get("in-memory-store-as-event-store"));

    run(Map.of(Backend.PROPERTY, "dynamodb-local"), AsksForTheInMemoryStore.class).testEvents().assertThatEvents()
        .haveExactly(1, finishedWithFailure(instanceOf(ParameterResolutionException.class),
            message(m -> m.startsWith("a parameter of type InMemoryEventStore needs the in-memory store")
                && m.endsWith("runs on DYNAMODB_LOCAL: pin its class with @EsgenTest(backend = Backend.IN_MEMORY),"
                    + " or ask for an EventStore"))));
  }

  private static EngineExecutionResults run(Map<String, String> parameters, Class<?>... classes) {
    var request = EngineTestKit.engine("junit-jupiter").configurationParameters(parameters);
    for (Class<?> type : classes) {
      request.selectors(selectClass(type));
    }
    return request.execute();
  }

  /** Stores with {@code store} a member, and loads it back: the store works, whatever its backend. */
  private static void storesAMember(EventStore store) {
    MemberRepository members = new MemberRepository(store);
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", id.value() + "@example.com"));
    assertEquals("red", members.load(id).team());
  }

  @EsgenTest
  static class InMemoryByDefault {

    @Test
    void getsAStoreThatWorks(EventStore store, Backend backend) {
      STORES.put("default", store);
      BACKENDS.put("default", backend);
      storesAMember(store);
    }

    @Test
    void getsAClockThatStandsStillUntilMoved(MutableClock clock) {
      STARTS.putIfAbsent("default", clock.instant());
      Instant start = clock.instant();
      assertEquals(start, clock.instant());
      assertEquals(start.plus(Duration.ofDays(1)), clock.advance(Duration.ofDays(1)));
    }
  }

  @EsgenTest
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class MovesTheClock {

    @Test
    @Order(1)
    void movesItAMonthOn(MutableClock clock) {
      clock.advance(Duration.ofDays(30));
    }

    @Test
    @Order(2)
    void findsItAtTheStart(MutableClock clock) {
      assertEquals(Instant.parse("2026-01-01T00:00:00Z"), clock.instant());
    }
  }

  @EsgenTest
  static class AsksForTheInMemoryStore {

    @Test
    void seeds(InMemoryEventStore store, EventStore same) {
      STORES.put("in-memory-store", store);
      STORES.put("in-memory-store-as-event-store", same);
    }
  }

  @EsgenTest
  @ExtendWith(MockitoExtension.class)
  static class BesideMockito {

    @Test
    void getsAMockAndAStore(@Mock EventStore mocked, EventStore store) {
      STORES.put("mockito", mocked);
      STORES.put("esgen", store);
    }
  }

  @EsgenTest(backend = Backend.IN_MEMORY, clockStart = "2030-06-01T12:00:00Z")
  static class PinnedInMemory {

    @Test
    void pinned(EventStore store, MutableClock clock) {
      STORES.put("pinned", store);
      CLOCKS.put("pinned", clock);
    }
  }

  @EsgenTest
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  static class OneInstance {

    OneInstance(EventStore store) {
      STORES.put("one-instance-constructor", store);
    }

    @BeforeAll
    void beforeAll(EventStore store) {
      STORES.put("one-instance-before-all", store);
    }

    @Test
    void test(EventStore store) {
      STORES.put("one-instance-test", store);
      storesAMember(store);
    }
  }

  /** Uses the store in its constructor, creating the tables, then fails: JUnit calls no afterAll callback. */
  @EsgenTest(backend = Backend.DYNAMODB_LOCAL)
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  static class FailingConstructor {

    FailingConstructor(EventStore store) {
      STORES.put("failing-constructor", store);
      storesAMember(store);
      throw new IllegalStateException("the service under test cannot start");
    }

    @Test
    void neverRuns() {}
  }

  @EsgenTest
  static class Enclosing {

    @Test
    void outer(EventStore store, MutableClock clock) {
      STORES.put("outer", store);
      CLOCKS.put("outer", clock);
    }

    @Nested
    class Inner {
      @Test
      void inner(EventStore store, MutableClock clock) {
        STORES.put("inner", store);
        CLOCKS.put("inner", clock);
      }
    }
  }

  @EsgenTest
  static class EnclosingWithOwnNested {

    @Test
    void outer(EventStore store, MutableClock clock) {
      STORES.put("own-outer", store);
      STARTS.put("own-outer", clock.instant());
    }

    @Nested
    @EsgenTest(backend = Backend.DYNAMODB_LOCAL, clockStart = "2031-01-01T00:00:00Z")
    class OwnInner {
      @Test
      void inner(EventStore store, MutableClock clock) {
        STORES.put("own-inner", store);
        STARTS.put("own-inner", clock.instant());
        storesAMember(store);
      }

      @Nested
      class Deeper {
        @Test
        void deeper(EventStore store) {
          STORES.put("own-deeper", store);
        }
      }
    }
  }

  /** The four tests wait for each other inside, so they did run at the same time. */
  static final CountDownLatch ALL_RUNNING = new CountDownLatch(4);

  private static void appendWhileTheOthersRun(String name, EventStore store) throws InterruptedException {
    STORES.put(name, store);
    ALL_RUNNING.countDown();
    assertTrue(ALL_RUNNING.await(60, TimeUnit.SECONDS), "the other tests did not run at the same time");
    storesAMember(store);
  }

  @EsgenTest
  @Execution(ExecutionMode.CONCURRENT)
  static class ParallelA {
    @Test
    void first(EventStore store) throws InterruptedException {
      appendWhileTheOthersRun("a-first", store);
    }

    @Test
    void second(EventStore store) throws InterruptedException {
      appendWhileTheOthersRun("a-second", store);
    }
  }

  @EsgenTest
  @Execution(ExecutionMode.CONCURRENT)
  static class ParallelB {
    @Test
    void first(EventStore store) throws InterruptedException {
      appendWhileTheOthersRun("b-first", store);
    }

    @Test
    void second(EventStore store) throws InterruptedException {
      appendWhileTheOthersRun("b-second", store);
    }
  }

  static class Programmatic {
    static final ObjectMapper MAPPER = EsgenJson.newObjectMapper();

    @RegisterExtension
    static final EsgenTestExtension ESGEN = EsgenTestExtension.create()
        .withConfig(config -> config.withObjectMapper(MAPPER))
        .withBackend(Backend.IN_MEMORY)
        .withClockStart(Instant.parse("2031-01-01T00:00:00Z"));

    @Test
    void programmatic(EventStore store, MutableClock clock) {
      STORES.put("programmatic", store);
      CLOCKS.put("programmatic", clock);
      storesAMember(store);
    }
  }

  static class ProgrammaticWithOwnNested {
    static final ObjectMapper MAPPER = EsgenJson.newObjectMapper();

    @RegisterExtension
    static final EsgenTestExtension ESGEN = EsgenTestExtension.create()
        .withConfig(config -> config.withObjectMapper(MAPPER))
        .withBackend(Backend.IN_MEMORY)
        .withClockStart(Instant.parse("2031-01-01T00:00:00Z"));

    @Test
    void outer(EventStore store, MutableClock clock) {
      STORES.put("field-outer", store);
      STARTS.put("field-outer", clock.instant());
    }

    @Nested
    @EsgenTest(backend = Backend.DYNAMODB_LOCAL, clockStart = "2032-01-01T00:00:00Z")
    class OwnInner {
      @Test
      void inner(EventStore store, MutableClock clock) {
        STORES.put("field-inner", store);
        STARTS.put("field-inner", clock.instant());
        storesAMember(store);
      }
    }
  }

  @EsgenTest(backend = Backend.DYNAMODB_LOCAL)
  static class AsyncFirst {
    /**
     * The asynchronous repository reaches the class's tables first, creating them; the synchronous one
     * then reads what it wrote, and the asynchronous one what the synchronous one appended after.
     */
    @Test
    void asyncThenSync(EventStore store, AsyncEventStore async) {
      asyncAndSyncSeeEachOthersAppends("async-first", store, async);
    }
  }

  @EsgenTest(backend = Backend.IN_MEMORY)
  static class AsyncInMemory {
    @Test
    void asyncThenSync(EventStore store, AsyncEventStore async) {
      asyncAndSyncSeeEachOthersAppends("async-in-memory", store, async);
    }
  }

  /**
   * Creates a member through {@code async}, reads and changes it through {@code store}, and reads the change
   * back through {@code async}: the two are one store.
   */
  private static void asyncAndSyncSeeEachOthersAppends(String name, EventStore store, AsyncEventStore async) {
    STORES.put(name, store);
    ASYNC_STORES.put(name, async);
    MemberAsyncRepository asyncMembers = new MemberAsyncRepository(async);
    MemberId id = MemberId.random();
    asyncMembers.create(Member.joining(id, "red", id.value() + "@example.com")).join();

    MemberRepository members = new MemberRepository(store);
    assertEquals("red", members.load(id).team());
    members.transact(id, member -> member.moveTo("blue"));
    assertEquals("blue", asyncMembers.load(id, ReadOptions.strong()).join().team());
  }

  @EsgenTest(clockStart = "yesterday")
  static class BadClock {
    @Test
    void neverRuns() {}
  }
}
