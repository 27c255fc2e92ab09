package dev.esgen.runtime.provision;

import static dev.esgen.runtime.provision.ProvisioningTests.freshConfig;
import static dev.esgen.runtime.provision.ProvisioningTests.withColumns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.test.DynamoDbLocal;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;

/**
 * Two processes provisioning the same tables at once (two instances of a service starting): the other
 * one changes a table between this one's look and its change, and DynamoDB refuses the change as done or
 * under way already. Neither call may fail for it.
 */
class ConcurrentProvisioningTest {

  // A server of its own, as every provisioning test has (see ProvisioningTests).
  private static DynamoDbLocal server;
  private static DynamoDbClient client;

  @BeforeAll
  static void startServer() {
    server = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM);
    client = ProvisioningTests.client(server);
  }

  @AfterAll
  static void stopServer() {
    client.close();
    server.close();
  }

  @Test
  void indexesAnotherProcessAddedSinceTheLookAreTakenAsTheyAre() {
    StoreConfig config = freshConfig();
    new TableProvisioner(client, config).createTablesIfMissing();
    AggregateDefinition<Counter, CounterId, CounterEvent> two =
        withColumns("two", IndexColumn.indexed("a"), IndexColumn.indexed("b"));
    // The other process adds the slots between this one's look and its first UpdateTable: DynamoDB refuses
    // to add an index of a name the table has.
    try (DynamoDbClient raced = clientRacedBy(UpdateTableRequest.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing(two))) {

      assertEquals(List.of(), new TableProvisioner(raced, config).createTablesIfMissing(two));
    }
    assertEquals(List.of("esgen-index-0 ACTIVE", "esgen-index-1 ACTIVE"), indexesOf(config.snapshotTable()));
    assertEquals(List.of("esgen-index-0 ACTIVE", "esgen-index-1 ACTIVE", "esgen-tip-listing ACTIVE"),
        indexesOf(config.tipTable()));
  }

  @Test
  void anIndexAnotherProcessIsAddingIsWaitedForAndTheUpdateSentAgain() {
    StoreConfig config = freshConfig();
    new TableProvisioner(client, config).createTablesIfMissing();
    // The other process has begun adding slot 1 when this one adds slot 0: DynamoDB builds one index of a
    // table at a time.
    GlobalSecondaryIndex slot1 = TableProvisioner.slotIndex(1);
    try (DynamoDbClient raced = clientRacedBy(UpdateTableRequest.class, () -> client.updateTable(b -> b
        .tableName(config.snapshotTable())
        .attributeDefinitions(string("ix1_pk"), string("aid"))
        .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
            .create(c -> c.indexName(slot1.indexName()).keySchema(slot1.keySchema()).projection(slot1.projection()))
            .build())))) {

      new TableProvisioner(raced, config).createTablesIfMissing(
          withColumns("two", IndexColumn.indexed("a"), IndexColumn.indexed("b")));
    }
    assertEquals(List.of("esgen-index-0 ACTIVE", "esgen-index-1 ACTIVE"), indexesOf(config.snapshotTable()));
  }

  @Test
  void anIndexAnotherProcessIsStillBuildingWhenThisOneLooksIsWaitedFor() {
    StoreConfig config = freshConfig();
    new TableProvisioner(client, config).createTablesIfMissing();
    // The other process has just asked for slot 0 on both tables when this one looks: DynamoDB is still
    // building them, and a lookup through an index being built fails.
    try (DynamoDbClient raced = clientRacedBy(DescribeTableRequest.class, () -> {
      addSlot(config.snapshotTable(), 0);
      addSlot(config.tipTable(), 0);
    })) {
      new TableProvisioner(raced, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a")));
    }
    assertEquals(List.of("esgen-index-0 ACTIVE"), indexesOf(config.snapshotTable()));
    assertEquals(List.of("esgen-index-0 ACTIVE", "esgen-tip-listing ACTIVE"), indexesOf(config.tipTable()));
  }

  private static void addSlot(String table, int slot) {
    GlobalSecondaryIndex index = TableProvisioner.slotIndex(slot);
    client.updateTable(b -> b
        .tableName(table)
        .attributeDefinitions(string(index.keySchema().get(0).attributeName()), string("aid"))
        .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
            .create(c -> c.indexName(index.indexName()).keySchema(index.keySchema()).projection(index.projection()))
            .build()));
  }

  @Test
  void timeToLiveAnotherProcessEnabledSinceTheLookIsTakenAsItIs() {
    StoreConfig config = freshConfig();
    try (DynamoDbClient raced = clientRacedBy(UpdateTimeToLiveRequest.class, () -> client.updateTimeToLive(b -> b
        .tableName(config.snapshotTable()).timeToLiveSpecification(t -> t.attributeName("ttl").enabled(true))))) {

      assertEquals(List.of(config.journalTable(), config.snapshotTable(), config.tipTable()),
          new TableProvisioner(raced, config).createTablesIfMissing());
    }
    assertEquals("ttl", client.describeTimeToLive(b -> b.tableName(config.snapshotTable()))
        .timeToLiveDescription().attributeName());
  }

  /**
   * A refusal that waiting does not end (an account's limit on concurrent table changes, which DynamoDB
   * Local never reaches: injected) is thrown after a bounded number of tries, not sent again forever.
   */
  @Test
  @Timeout(60)
  void aTableChangeRefusedForAnotherUnderWayIsTriedABoundedNumberOfTimes() {
    StoreConfig config = freshConfig();
    new TableProvisioner(client, config).createTablesIfMissing();
    AtomicInteger updates = new AtomicInteger();
    try (DynamoDbClient limited = ProvisioningTests.client(server, new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof UpdateTableRequest) {
          updates.incrementAndGet();
          throw LimitExceededException.builder().message("too many table operations under way").build();
        }
      }
    })) {
      assertThrows(LimitExceededException.class,
          () -> new TableProvisioner(limited, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a"))));
    }
    assertEquals(5, updates.get());
    assertEquals(List.of(), indexesOf(config.snapshotTable()));
  }

  /**
   * A client of the test's server that runs {@code otherProcess} once, just before its first request of
   * type {@code type} is sent.
   */
  private static DynamoDbClient clientRacedBy(Class<?> type, Runnable otherProcess) {
    AtomicBoolean ran = new AtomicBoolean();
    return ProvisioningTests.client(server, new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (type.isInstance(context.request()) && ran.compareAndSet(false, true)) {
          otherProcess.run();
        }
      }
    });
  }

  private static List<String> indexesOf(String table) {
    return client.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
        .map(i -> i.indexName() + " " + i.indexStatus()).sorted().toList();
  }

  private static AttributeDefinition string(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
  }
}
