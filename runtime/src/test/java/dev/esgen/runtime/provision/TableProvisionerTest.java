package dev.esgen.runtime.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.annotations.Normalization;
import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.journal.JournalAttributes;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
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

  @Test
  void indexSlotsAreComputedFromTheDefinitionsAndAddedToAnExistingTable() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    StoreConfig config = StoreConfig.defaults().withJournalTable("j-" + suffix).withSnapshotTable("s-" + suffix);
    TableProvisioner provisioner = new TableProvisioner(client, config);
    assertEquals(List.of(config.journalTable(), config.snapshotTable()), provisioner.createTablesIfMissing(
        withColumns("one", IndexColumn.indexed("a"), IndexColumn.unique("u", Normalization.EXACT))));
    assertEquals(List.of("esgen-index-0"), indexesOf(config.snapshotTable()));

    provisioner.createTablesIfMissing(withColumns("three",
        IndexColumn.indexed("a"), IndexColumn.indexed("b"), IndexColumn.indexed("c")));
    assertEquals(List.of("esgen-index-0", "esgen-index-1", "esgen-index-2"), indexesOf(config.snapshotTable()));
    TableDescription snapshot = client.describeTable(b -> b.tableName(config.snapshotTable())).table();
    snapshot.globalSecondaryIndexes().forEach(index -> {
      assertEquals(ProjectionType.KEYS_ONLY, index.projection().projectionType());
      assertEquals("aid", index.keySchema().get(1).attributeName());
    });

    TestDynamo.requests().reset();
    provisioner.createTablesIfMissing(withColumns("three",
        IndexColumn.indexed("a"), IndexColumn.indexed("b"), IndexColumn.indexed("c")));
    assertEquals(0, TestDynamo.requests().of("UpdateTable"));
  }

  @Test
  void theTipTableGetsTheListingIndexAndTheSameSlots() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    StoreConfig config = StoreConfig.defaults().withJournalTable("j-" + suffix).withSnapshotTable("s-" + suffix)
        .withTipTable("t-" + suffix);
    TableProvisioner provisioner = new TableProvisioner(client, config);
    provisioner.createTablesIfMissing();
    assertEquals(List.of("esgen-tip-listing"), indexesOf(config.tipTable()));

    provisioner.createTablesIfMissing(withColumns("two", IndexColumn.indexed("a"), IndexColumn.indexed("b")));
    assertEquals(List.of("esgen-index-0", "esgen-index-1", "esgen-tip-listing"), indexesOf(config.tipTable()));
    TableDescription tip = client.describeTable(b -> b.tableName(config.tipTable())).table();
    tip.globalSecondaryIndexes().forEach(index -> {
      assertEquals(ProjectionType.KEYS_ONLY, index.projection().projectionType());
      assertEquals("aid", index.keySchema().get(1).attributeName());
    });
  }

  @Test
  void moreIndexedColumnsThanATableHasIndexesAreRefused() {
    IndexColumn[] columns = new IndexColumn[21];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = IndexColumn.indexed("c" + i);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TableProvisioner.slotsNeeded(List.of(withColumns("wide", columns))));
    assertTrue(e.getMessage().contains("wide has 21 @Indexed columns"), e.getMessage());
  }

  private List<String> indexesOf(String table) {
    return client.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
        .map(GlobalSecondaryIndexDescription::indexName).sorted().toList();
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
