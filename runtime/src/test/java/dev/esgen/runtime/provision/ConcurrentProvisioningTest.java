package dev.esgen.runtime.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.test.DynamoDbLocal;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
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

  // A server of its own, as TableProvisionerTest has: DynamoDB Local builds added indexes on a small thread
  // pool that each TTL-enabled table keeps busy for good.
  private static DynamoDbLocal server;
  private static DynamoDbClient client;

  @BeforeAll
  static void startServer() {
    server = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM);
    client = client(null);
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
    try (DynamoDbClient limited = client(new ExecutionInterceptor() {
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
    return client(new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (type.isInstance(context.request()) && ran.compareAndSet(false, true)) {
          otherProcess.run();
        }
      }
    });
  }

  private static DynamoDbClient client(ExecutionInterceptor interceptor) {
    return DynamoDbClient.builder()
        .endpointOverride(server.endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> {
          if (interceptor != null) {
            c.addExecutionInterceptor(interceptor);
          }
        })
        .build();
  }

  private static StoreConfig freshConfig() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    return StoreConfig.defaults().withJournalTable("j-" + suffix).withSnapshotTable("s-" + suffix)
        .withTipTable("t-" + suffix);
  }

  private static List<String> indexesOf(String table) {
    return client.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
        .map(i -> i.indexName() + " " + i.indexStatus()).sorted().toList();
  }

  private static AttributeDefinition string(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
  }

  private static AggregateDefinition<Counter, CounterId, CounterEvent> withColumns(String name, IndexColumn... columns) {
    AggregateDefinition<Counter, CounterId, CounterEvent> counter =
        CounterRepository.definition(EsgenJson.newObjectMapper(), SnapshotPolicy.every(100));
    IndexColumns<Counter> indexColumns = new IndexColumns<>() {
      @Override
      public List<IndexColumn> columns() {
        return List.of(columns);
      }

      @Override
      public Map<String, String> values(Counter state) {
        return Map.of();
      }
    };
    return AggregateDefinition.<Counter, CounterId, CounterEvent>builder(name, Counter.class)
        .keys(counter.keys())
        .eventCodec(counter.eventCodec())
        .snapshotCodec(counter.snapshotCodec())
        .replay(counter.replay())
        .indexColumns(indexColumns)
        .build();
  }
}
