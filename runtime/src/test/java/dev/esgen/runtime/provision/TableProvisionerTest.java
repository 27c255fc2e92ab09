package dev.esgen.runtime.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.journal.JournalAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

class TableProvisionerTest {

  private final DynamoDbClient client = TestDynamo.client();

  @Test
  void createsBothTablesWithTheOptionalIndexAndTtlThenDoesNothing() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    StoreConfig config = StoreConfig.defaults()
        .withJournalTable("journal-" + suffix).withSnapshotTable("snapshot-" + suffix)
        .withTipTable("streams-" + suffix).withAidIndex(true);
    TableProvisioner provisioner = new TableProvisioner(client, config);

    assertEquals(List.of(config.journalTable(), config.snapshotTable(), config.tipTable()),
        provisioner.createTablesIfMissing());

    TableDescription journal = client.describeTable(b -> b.tableName(config.journalTable())).table();
    assertEquals(BillingMode.PAY_PER_REQUEST, journal.billingModeSummary().billingMode());
    assertEquals(JournalAttributes.AID_INDEX, journal.globalSecondaryIndexes().get(0).indexName());
    assertEquals(List.of("aid", "seq_nr"),
        journal.globalSecondaryIndexes().get(0).keySchema().stream().map(k -> k.attributeName()).toList());
    assertEquals(TimeToLiveStatus.ENABLED, client.describeTimeToLive(b -> b.tableName(config.snapshotTable()))
        .timeToLiveDescription().timeToLiveStatus());
    assertEquals("ttl", client.describeTimeToLive(b -> b.tableName(config.snapshotTable()))
        .timeToLiveDescription().attributeName());

    TestDynamo.requests().reset();
    assertEquals(List.of(), provisioner.createTablesIfMissing());
    assertEquals(0, TestDynamo.requests().of("CreateTable"));
    assertEquals(0, TestDynamo.requests().of("UpdateTimeToLive"));
  }

  @Test
  void theJournalHasNoIndexByDefault() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    StoreConfig config = StoreConfig.defaults().withJournalTable("j-" + suffix).withSnapshotTable("s-" + suffix)
        .withTipTable("t-" + suffix);
    new TableProvisioner(client, config).createTablesIfMissing();
    TableDescription journal = client.describeTable(b -> b.tableName(config.journalTable())).table();
    assertEquals(false, journal.hasGlobalSecondaryIndexes() && !journal.globalSecondaryIndexes().isEmpty());
  }
}
