package dev.esgen.runtime.provision;

import static dev.esgen.runtime.provision.ProvisioningTests.freshConfig;
import static dev.esgen.runtime.provision.ProvisioningTests.withColumns;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.test.DynamoDbLocal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

/**
 * An index of esgen's that is being deleted (by hand, by a template) when the provisioner looks. It serves
 * no lookup and is gone once DynamoDB is done, so it counts as missing: waited for, then added again.
 * DynamoDB Local deletes an index at once; DynamoDB takes a while, which {@link DeletingIndex} shows the
 * provisioner by answering its next DescribeTable calls as DynamoDB would meanwhile.
 */
class IndexBeingDeletedTest {

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

  /** Without the wait, the provisioner waited for the index to become active again, which it never does. */
  @Test
  @Timeout(120)
  void anIndexBeingDeletedIsWaitedForAndThenAddedAgain() {
    StoreConfig config = freshConfig();
    AggregateDefinition<Counter, CounterId, CounterEvent> one = withColumns("one", IndexColumn.indexed("a"));
    new TableProvisioner(client, config).createTablesIfMissing(one);
    deleteIndex(config.snapshotTable(), "esgen-index-0");
    DeletingIndex deleting = slot0Deleting(config.snapshotTable());
    deleting.showFor(5);

    try (DynamoDbClient watched = ProvisioningTests.client(server, deleting)) {
      assertEquals(List.of(), new TableProvisioner(watched, config).createTablesIfMissing(one));
    }

    assertEquals(List.of(
            "DescribeTable: esgen-index-0 DELETING", "DescribeTable: esgen-index-0 DELETING",
            "DescribeTable: esgen-index-0 DELETING", "DescribeTable: esgen-index-0 DELETING",
            "DescribeTable: esgen-index-0 DELETING", "UpdateTable: create esgen-index-0"),
        deleting.events(), "added once DynamoDB no longer showed it being deleted");
    assertEquals(List.of("esgen-index-0 ACTIVE hash ix0_pk, range aid"), indexesOf(config.snapshotTable()));
    assertEquals(List.of("esgen-index-0 ACTIVE hash ix0_pk, range aid", "esgen-tip-listing ACTIVE hash lk, range aid"),
        indexesOf(config.tipTable()));
  }

  /**
   * The provisioner found the index missing, but by its UpdateTable another process had added it and an
   * operator had begun deleting it: DynamoDB refuses the update while that deletion runs. The index is not
   * there to stay, so it is no index "added by someone else meanwhile": the update is sent again once the
   * deletion is over.
   */
  @Test
  @Timeout(120)
  void anAddRefusedWhileAnIndexOfItsNameIsBeingDeletedIsSentAgainAfterTheDeletion() {
    StoreConfig config = freshConfig();
    new TableProvisioner(client, config).createTablesIfMissing();
    DeletingIndex deleting = slot0Deleting(config.snapshotTable());
    AtomicBoolean refused = new AtomicBoolean();
    ExecutionInterceptor refuseFirstAdd = new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof UpdateTableRequest update
            && update.tableName().equals(config.snapshotTable()) && refused.compareAndSet(false, true)) {
          deleting.showFor(3);
          throw LimitExceededException.builder()
              .message("Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously"
                  + " per table")
              .build();
        }
      }
    };

    try (DynamoDbClient watched = ProvisioningTests.client(server, deleting, refuseFirstAdd)) {
      new TableProvisioner(watched, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a")));
    }

    assertEquals(List.of(
            "UpdateTable: create esgen-index-0", "DescribeTable: esgen-index-0 DELETING",
            "DescribeTable: esgen-index-0 DELETING", "DescribeTable: esgen-index-0 DELETING",
            "UpdateTable: create esgen-index-0"),
        deleting.events());
    assertEquals(List.of("esgen-index-0 ACTIVE hash ix0_pk, range aid"), indexesOf(config.snapshotTable()));
  }

  /**
   * An index of esgen's name with other keys is refused, and TableSchemaMismatchException says to delete
   * it so that the provisioner adds esgen's. Run while DynamoDB is still deleting it, the provisioner does
   * not refuse it again, for its keys or for the attribute type only it defines: it waits and adds esgen's.
   */
  @Test
  @Timeout(120)
  void anIndexWithOtherKeysThatIsBeingDeletedIsNotRefusedButReplaced() {
    StoreConfig config = freshConfig();
    new TableProvisioner(client, config).createTablesIfMissing();
    // Slot 0 keyed on ix0_pk as a number: refused while it stays, for its keys and for the attribute's type.
    GlobalSecondaryIndex numeric = GlobalSecondaryIndex.builder()
        .indexName("esgen-index-0")
        .keySchema(TableProvisioner.slotIndex(0).keySchema())
        .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))
        .build();
    DeletingIndex deleting = new DeletingIndex(config.snapshotTable(), numeric,
        AttributeDefinition.builder().attributeName("ix0_pk").attributeType(ScalarAttributeType.N).build(),
        string("aid"));
    deleting.showFor(4);

    try (DynamoDbClient watched = ProvisioningTests.client(server, deleting)) {
      new TableProvisioner(watched, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a")));
    }

    assertEquals(List.of(
            "DescribeTable: esgen-index-0 DELETING", "DescribeTable: esgen-index-0 DELETING",
            "DescribeTable: esgen-index-0 DELETING", "DescribeTable: esgen-index-0 DELETING",
            "UpdateTable: create esgen-index-0"),
        deleting.events());
    assertEquals(List.of("esgen-index-0 ACTIVE hash ix0_pk, range aid"), indexesOf(config.snapshotTable()));
    assertEquals("S", client.describeTable(b -> b.tableName(config.snapshotTable())).table().attributeDefinitions()
        .stream().filter(a -> a.attributeName().equals("ix0_pk")).findFirst().orElseThrow().attributeTypeAsString());
  }

  /** Deletes {@code index} of {@code table} on DynamoDB Local and waits until Local no longer lists it. */
  private static void deleteIndex(String table, String index) {
    client.updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(
        GlobalSecondaryIndexUpdate.builder().delete(d -> d.indexName(index)).build()));
    for (int i = 0; i < 100; i++) {
      if (client.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
          .noneMatch(d -> d.indexName().equals(index))) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("DynamoDB Local still lists index " + index + " of table " + table);
  }

  /** The snapshot and tip tables' slot 0, with the attributes it keys on. */
  private static DeletingIndex slot0Deleting(String table) {
    return new DeletingIndex(table, TableProvisioner.slotIndex(0), string("ix0_pk"), string("aid"));
  }

  private static AttributeDefinition string(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
  }

  private static List<String> indexesOf(String table) {
    return client.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
        .map(i -> i.indexName() + " " + i.indexStatus() + " " + i.keySchema().stream()
            .map(k -> k.keyTypeAsString().toLowerCase() + " " + k.attributeName())
            .collect(Collectors.joining(", ")))
        .sorted().toList();
  }

  /**
   * Shows an index of a table as DynamoDB shows one it is deleting: for the next {@link #showFor} answers to
   * DescribeTable of the table, the index is listed with status {@code DELETING} (in place of one of its
   * name, if DynamoDB Local lists one), and the table still defines its key attributes. Records those
   * answers and the indexes UpdateTable is asked to create on the table, in order.
   */
  static final class DeletingIndex implements ExecutionInterceptor {

    private final String table;
    private final GlobalSecondaryIndexDescription deleting;
    private final List<AttributeDefinition> keyAttributes;
    private final AtomicInteger remaining = new AtomicInteger();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    DeletingIndex(String table, GlobalSecondaryIndex index, AttributeDefinition... keyAttributes) {
      this.table = table;
      this.keyAttributes = List.of(keyAttributes);
      this.deleting = GlobalSecondaryIndexDescription.builder()
          .indexName(index.indexName())
          .keySchema(index.keySchema())
          .projection(index.projection())
          .indexStatus(IndexStatus.DELETING)
          .build();
    }

    /** Lists the index as being deleted in the next {@code answers} descriptions of the table. */
    void showFor(int answers) {
      remaining.set(answers);
    }

    List<String> events() {
      return List.copyOf(events);
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
      if (context.request() instanceof UpdateTableRequest update && update.tableName().equals(table)) {
        update.globalSecondaryIndexUpdates().stream()
            .filter(u -> u.create() != null)
            .forEach(u -> events.add("UpdateTable: create " + u.create().indexName()));
      }
    }

    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes executionAttributes) {
      if (!(context.response() instanceof DescribeTableResponse response)
          || !response.table().tableName().equals(table)
          || remaining.getAndUpdate(n -> Math.max(n - 1, 0)) == 0) {
        return context.response();
      }
      TableDescription described = response.table();
      List<GlobalSecondaryIndexDescription> indexes = new ArrayList<>(described.globalSecondaryIndexes());
      indexes.removeIf(i -> i.indexName().equals(deleting.indexName()));
      indexes.add(deleting);
      List<AttributeDefinition> attributes = new ArrayList<>(described.attributeDefinitions());
      keyAttributes.stream()
          .filter(key -> attributes.stream().noneMatch(a -> a.attributeName().equals(key.attributeName())))
          .forEach(attributes::add);
      events.add("DescribeTable: " + deleting.indexName() + " DELETING");
      return response.toBuilder().table(described.toBuilder()
          .globalSecondaryIndexes(indexes).attributeDefinitions(attributes).build()).build();
    }
  }
}
