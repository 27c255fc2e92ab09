package dev.esgen.runtime.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.TableSchemaMismatchException;
import dev.esgen.test.DynamoDbLocal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A snapshot table whose time to live is on another attribute than esgen's {@code ttl}: DynamoDB takes one
 * per table, so snapshots left for TTL would never expire there. The provisioner refuses it before it
 * touches any table.
 */
class SnapshotTableTtlTest {

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
  void aSnapshotTableWithTimeToLiveOnAnotherAttributeIsRefusedBeforeAnyTableIsTouched() {
    StoreConfig config = ProvisioningTests.freshConfig();
    client.createTable(b -> b.tableName(config.snapshotTable()).billingMode(BillingMode.PAY_PER_REQUEST)
        .keySchema(KeySchemaElement.builder().attributeName("pkey").keyType(KeyType.HASH).build(),
            KeySchemaElement.builder().attributeName("skey").keyType(KeyType.RANGE).build())
        .attributeDefinitions(
            AttributeDefinition.builder().attributeName("pkey").attributeType(ScalarAttributeType.S).build(),
            AttributeDefinition.builder().attributeName("skey").attributeType(ScalarAttributeType.S).build()));
    client.waiter().waitUntilTableExists(b -> b.tableName(config.snapshotTable()));
    client.updateTimeToLive(b -> b.tableName(config.snapshotTable())
        .timeToLiveSpecification(t -> t.attributeName("expires_at").enabled(true)));

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing());

    assertEquals(config.snapshotTable(), e.table());
    assertEquals(Optional.empty(), e.index());
    assertEquals("time to live on attribute expires_at", e.found());
    assertTrue(e.getMessage().contains("but esgen needs time to live on attribute ttl"), e.getMessage());
    assertEquals("expires_at", client.describeTimeToLive(b -> b.tableName(config.snapshotTable()))
        .timeToLiveDescription().attributeName());
    assertThrows(ResourceNotFoundException.class, () -> client.describeTable(b -> b.tableName(config.journalTable())));
    assertThrows(ResourceNotFoundException.class, () -> client.describeTable(b -> b.tableName(config.tipTable())));
  }

  @Test
  void aSnapshotTableWithEsgensTimeToLiveIsTakenAsItIs() {
    StoreConfig config = ProvisioningTests.freshConfig();
    new TableProvisioner(client, config).createTablesIfMissing();

    assertEquals(List.of(), new TableProvisioner(client, config).createTablesIfMissing());
    assertEquals("ttl", client.describeTimeToLive(b -> b.tableName(config.snapshotTable()))
        .timeToLiveDescription().attributeName());
  }
}
