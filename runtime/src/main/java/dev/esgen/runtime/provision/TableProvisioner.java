package dev.esgen.runtime.provision;

import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.journal.JournalAttributes;
import dev.esgen.runtime.tip.TipAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * Creates the journal, snapshot and tip tables a {@link StoreConfig} names, for development, tests and
 * first deployments. Production setups are better described as infrastructure as code
 * ({@code docs/operations.md} shows the same definitions); this class is the executable reference.
 *
 * <p>The journal and snapshot tables are on-demand ({@code PAY_PER_REQUEST}) with string keys
 * {@code pkey} (hash) and {@code skey} (range); the tip table is on-demand with {@code p} (S, hash) and
 * {@code i} (N, range), see {@link TipAttributes}. The journal gets the {@code aid}/{@code seq_nr} index only when
 * {@link StoreConfig#aidIndex()} is set. TTL is enabled on the snapshot table's {@code ttl} attribute so
 * displaced snapshots in TTL mode expire. The call waits until all tables are active and is idempotent:
 * existing tables are left as they are (an existing table is not altered to add a missing index).
 *
 * <pre>{@code
 * new TableProvisioner(client, StoreConfig.defaults()).createTablesIfMissing();
 * }</pre>
 */
public final class TableProvisioner {

  private final DynamoDbClient client;
  private final StoreConfig config;

  public TableProvisioner(DynamoDbClient client, StoreConfig config) {
    this.client = Objects.requireNonNull(client, "client");
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * Creates whichever of the three tables do not exist yet, enables TTL on the snapshot table and waits
   * until all are active. Every store gets the tip table, whether or not an aggregate uses the tip
   * layout yet: an empty table costs nothing on demand.
   *
   * @return the names of the tables this call created (empty when all existed)
   */
  public List<String> createTablesIfMissing() {
    List<String> created = new ArrayList<>();
    if (createIfMissing(journalTable())) {
      created.add(config.journalTable());
    }
    if (createIfMissing(snapshotTable())) {
      created.add(config.snapshotTable());
    }
    if (createIfMissing(tipTable())) {
      created.add(config.tipTable());
    }
    client.waiter().waitUntilTableExists(b -> b.tableName(config.journalTable()));
    client.waiter().waitUntilTableExists(b -> b.tableName(config.tipTable()));
    client.waiter().waitUntilTableExists(b -> b.tableName(config.snapshotTable()));
    enableSnapshotTtl();
    return created;
  }

  private CreateTableRequest journalTable() {
    CreateTableRequest.Builder table = keyedTable(config.journalTable());
    if (config.aidIndex()) {
      table.attributeDefinitions(
              stringKey(JournalAttributes.PKEY),
              stringKey(JournalAttributes.SKEY),
              stringKey(JournalAttributes.AID),
              AttributeDefinition.builder()
                  .attributeName(JournalAttributes.SEQ_NR).attributeType(ScalarAttributeType.N).build())
          .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
              .indexName(JournalAttributes.AID_INDEX)
              .keySchema(
                  key(JournalAttributes.AID, KeyType.HASH),
                  key(JournalAttributes.SEQ_NR, KeyType.RANGE))
              .projection(p -> p.projectionType(ProjectionType.ALL))
              .build());
    }
    return table.build();
  }

  private CreateTableRequest snapshotTable() {
    return keyedTable(config.snapshotTable()).build();
  }

  private CreateTableRequest tipTable() {
    return CreateTableRequest.builder()
        .tableName(config.tipTable())
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(
            stringKey(TipAttributes.STREAM),
            AttributeDefinition.builder().attributeName(TipAttributes.INDEX).attributeType(ScalarAttributeType.N).build())
        .keySchema(key(TipAttributes.STREAM, KeyType.HASH), key(TipAttributes.INDEX, KeyType.RANGE))
        .build();
  }

  private static CreateTableRequest.Builder keyedTable(String name) {
    return CreateTableRequest.builder()
        .tableName(name)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(stringKey(JournalAttributes.PKEY), stringKey(JournalAttributes.SKEY))
        .keySchema(key(JournalAttributes.PKEY, KeyType.HASH), key(JournalAttributes.SKEY, KeyType.RANGE));
  }

  private boolean createIfMissing(CreateTableRequest request) {
    if (exists(request.tableName())) {
      return false;
    }
    try {
      client.createTable(request);
      return true;
    } catch (ResourceInUseException e) {
      // Created by someone else between our check and our request: just as good.
      return false;
    }
  }

  private boolean exists(String table) {
    try {
      client.describeTable(b -> b.tableName(table));
      return true;
    } catch (ResourceNotFoundException e) {
      return false;
    }
  }

  private void enableSnapshotTtl() {
    TimeToLiveStatus status = client.describeTimeToLive(b -> b.tableName(config.snapshotTable()))
        .timeToLiveDescription().timeToLiveStatus();
    // DynamoDB rejects enabling TTL again while it is enabled or still being enabled.
    if (status == TimeToLiveStatus.ENABLED || status == TimeToLiveStatus.ENABLING) {
      return;
    }
    client.updateTimeToLive(b -> b
        .tableName(config.snapshotTable())
        .timeToLiveSpecification(t -> t.attributeName(JournalAttributes.TTL).enabled(true)));
  }

  private static AttributeDefinition stringKey(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }
}
