package dev.esgen.runtime.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.StreamViewTypeMismatchException;
import dev.esgen.runtime.error.TableSchemaMismatchException;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

/** {@link TableProvisioner#enableChangeFeed()}: streams on the event tables and the positions table, once. */
class ChangeFeedTablesTest {

  private final DynamoDbClient client = TestDynamo.client();

  @Test
  void enablesNewImageStreamsOnExistingTablesAndCreatesThePositionsTableOnce() {
    StoreConfig config = freshConfig();
    TableProvisioner provisioner = new TableProvisioner(client, config);
    provisioner.createTablesIfMissing();
    assertNull(describe(config.journalTable()).streamSpecification());

    assertEquals(List.of(config.journalTable(), config.tipTable(), config.positionsTable()),
        provisioner.enableChangeFeed());

    for (String table : List.of(config.journalTable(), config.tipTable())) {
      TableDescription described = describe(table);
      assertEquals(true, described.streamSpecification().streamEnabled(), table);
      assertEquals(StreamViewType.NEW_IMAGE, described.streamSpecification().streamViewType(), table);
      assertTrue(described.latestStreamArn() != null, table);
    }
    assertNull(describe(config.snapshotTable()).streamSpecification(), "the snapshot table holds no events");
    TableDescription positions = describe(config.positionsTable());
    assertEquals(BillingMode.PAY_PER_REQUEST, positions.billingModeSummary().billingMode());
    assertEquals("projection", positions.keySchema().get(0).attributeName());
    assertEquals(KeyType.HASH, positions.keySchema().get(0).keyType());
    assertEquals("stream", positions.keySchema().get(1).attributeName());
    assertEquals(KeyType.RANGE, positions.keySchema().get(1).keyType());
    positions.attributeDefinitions().forEach(a -> assertEquals(ScalarAttributeType.S, a.attributeType()));

    TestDynamo.requests().reset();
    assertEquals(List.of(), provisioner.enableChangeFeed());
    assertEquals(0, TestDynamo.requests().of("UpdateTable"));
    assertEquals(0, TestDynamo.requests().of("CreateTable"));
  }

  @Test
  void aStreamWithBothImagesIsGoodEnough() {
    StoreConfig config = freshConfig();
    TableProvisioner provisioner = new TableProvisioner(client, config);
    provisioner.createTablesIfMissing();
    enableStream(config.tipTable(), StreamViewType.NEW_AND_OLD_IMAGES);

    assertEquals(List.of(config.journalTable(), config.positionsTable()), provisioner.enableChangeFeed());
    assertEquals(StreamViewType.NEW_AND_OLD_IMAGES, describe(config.tipTable()).streamSpecification().streamViewType());
  }

  @Test
  void aStreamWithoutNewImagesIsRefusedAndNoTableIsChanged() {
    StoreConfig config = freshConfig();
    TableProvisioner provisioner = new TableProvisioner(client, config);
    provisioner.createTablesIfMissing();
    enableStream(config.tipTable(), StreamViewType.KEYS_ONLY);

    StreamViewTypeMismatchException e =
        assertThrows(StreamViewTypeMismatchException.class, provisioner::enableChangeFeed);

    assertEquals(config.tipTable(), e.table());
    assertEquals("KEYS_ONLY", e.found());
    assertTrue(e.getMessage().startsWith("table '" + config.tipTable() + "' has a stream of view type KEYS_ONLY,"
        + " but the change feed needs NEW_IMAGE"), e.getMessage());
    assertNull(describe(config.journalTable()).streamSpecification(), "checked before anything changed");
    assertThrows(ResourceNotFoundException.class, () -> describe(config.positionsTable()));
  }

  @Test
  void aPositionsTableWithOtherKeysIsRefusedAndNoStreamIsEnabled() {
    StoreConfig config = freshConfig();
    TableProvisioner provisioner = new TableProvisioner(client, config);
    provisioner.createTablesIfMissing();
    client.createTable(b -> b.tableName(config.positionsTable())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(AttributeDefinition.builder()
            .attributeName("projection").attributeType(ScalarAttributeType.S).build())
        .keySchema(KeySchemaElement.builder().attributeName("projection").keyType(KeyType.HASH).build()));

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class, provisioner::enableChangeFeed);

    assertEquals(config.positionsTable(), e.table());
    assertEquals("hash key projection (S), range key stream (S)", e.expected());
    assertNull(describe(config.journalTable()).streamSpecification());
    assertNull(describe(config.tipTable()).streamSpecification());
  }

  @Test
  void theEventTablesMustExistFirst() {
    StoreConfig config = freshConfig();
    MissingTableException e =
        assertThrows(MissingTableException.class, () -> new TableProvisioner(client, config).enableChangeFeed());
    assertEquals(List.of(config.journalTable()), e.tables());
    assertFalse(client.listTables().tableNames().contains(config.positionsTable()));
  }

  @Test
  void streamsAndAPositionsTableAnotherProcessMadeSinceTheLookAreTakenAsTheyAre() {
    StoreConfig config = freshConfig();
    new TableProvisioner(client, config).createTablesIfMissing();
    // Another instance starting does it all between this one's look and its first UpdateTable: DynamoDB
    // refuses a second stream on a table.
    AtomicBoolean ran = new AtomicBoolean();
    DynamoDbClient raced = TestDynamo.clientWith(new ExecutionInterceptor() {
      @Override
      public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof UpdateTableRequest && ran.compareAndSet(false, true)) {
          new TableProvisioner(client, config).enableChangeFeed();
        }
      }
    });

    assertEquals(List.of(), new TableProvisioner(raced, config).enableChangeFeed());

    assertTrue(ran.get());
    for (String table : List.of(config.journalTable(), config.tipTable())) {
      assertEquals(StreamViewType.NEW_IMAGE, describe(table).streamSpecification().streamViewType(), table);
    }
    raced.close();
  }

  private void enableStream(String table, StreamViewType type) {
    client.updateTable(b -> b.tableName(table)
        .streamSpecification(StreamSpecification.builder().streamEnabled(true).streamViewType(type).build()));
    client.waiter().waitUntilTableExists(b -> b.tableName(table));
  }

  private TableDescription describe(String table) {
    return client.describeTable(b -> b.tableName(table)).table();
  }

  /**
   * Tables of the test's own but the shared snapshot table, which holds no events: the provisioner enables
   * TTL on a snapshot table, and DynamoDB Local keeps a thread busy for good per table with TTL, from a
   * pool of ten that also builds indexes.
   */
  private static StoreConfig freshConfig() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    return StoreConfig.defaults().withJournalTable("cf-j-" + suffix).withTipTable("cf-t-" + suffix)
        .withPositionsTable("cf-p-" + suffix);
  }
}
