package dev.esgen.runtime.provision;

import static dev.esgen.runtime.provision.ProvisioningTests.freshConfig;
import static dev.esgen.runtime.provision.ProvisioningTests.withColumns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.annotations.Normalization;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.TableSchemaMismatchException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.testing.RequestCounter;
import dev.esgen.test.DynamoDbLocal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

class TableProvisionerTest {

  // A server of its own (see ProvisioningTests): the suite's shared server holds many tables with TTL on,
  // and an index build there waited minutes for a free thread.
  private static final RequestCounter REQUESTS = new RequestCounter();
  private static DynamoDbLocal server;
  private static DynamoDbClient client;

  @BeforeAll
  static void startServer() {
    server = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM);
    client = ProvisioningTests.client(server, REQUESTS);
  }

  @AfterAll
  static void stopServer() {
    client.close();
    server.close();
  }

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

    REQUESTS.reset();
    assertEquals(List.of(), provisioner.createTablesIfMissing());
    assertEquals(0, REQUESTS.of("CreateTable"));
    assertEquals(0, REQUESTS.of("UpdateTimeToLive"));
  }

  @Test
  void aStoresProvisionerCreatesTheTablesItsConfigNamesOnTheClientItWasCreatedWith() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    StoreConfig config = StoreConfig.defaults()
        .withJournalTable("journal-" + suffix).withSnapshotTable("snapshot-" + suffix).withTipTable("streams-" + suffix);
    DynamoDbEventStore store = DynamoDbEventStore.create(client, config);

    REQUESTS.reset();
    assertEquals(List.of(config.journalTable(), config.snapshotTable(), config.tipTable()),
        store.provisioner().createTablesIfMissing());
    assertEquals(3, REQUESTS.of("CreateTable"), "sent through the store's own client, which counts them");
    assertEquals(List.of(), store.provisioner().createTablesIfMissing());
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
    // Tables of its own, the tip's included: adding an index to the shared tables, which hold every other
    // test's items, would make DynamoDB Local backfill all of them.
    StoreConfig config = StoreConfig.defaults().withJournalTable("j-" + suffix).withSnapshotTable("s-" + suffix)
        .withTipTable("t-" + suffix);
    TableProvisioner provisioner = new TableProvisioner(client, config);
    assertEquals(List.of(config.journalTable(), config.snapshotTable(), config.tipTable()),
        provisioner.createTablesIfMissing(
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

    REQUESTS.reset();
    provisioner.createTablesIfMissing(withColumns("three",
        IndexColumn.indexed("a"), IndexColumn.indexed("b"), IndexColumn.indexed("c")));
    assertEquals(0, REQUESTS.of("UpdateTable"));
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

  /** 20 global secondary indexes per table; on the tip table the listing index takes one of them. */
  @Test
  void aDefinitionRefusesMoreIndexedColumnsThanItsLayoutsTableHasIndexes() {
    assertEquals(20, TableProvisioner.slotsNeeded(List.of(withColumns("wide", indexed(20)))));

    IllegalArgumentException journal =
        assertThrows(IllegalArgumentException.class, () -> withColumns("wide", indexed(21)));
    assertTrue(journal.getMessage().startsWith("aggregate wide has 21 @Indexed columns, but a DynamoDB table has at"
        + " most 20 global secondary indexes: "), journal.getMessage());
    IllegalArgumentException tip = assertThrows(IllegalArgumentException.class,
        () -> withColumns("wide", indexed(20)).withLayout(LayoutKind.TIP, TipPolicy.defaults()));
    assertTrue(tip.getMessage().contains("wide has 20 @Indexed columns") && tip.getMessage().contains(
        "the tip table's listing index takes one of them, so a tip-layout aggregate can use 19"), tip.getMessage());
    assertEquals(LayoutKind.TIP, withColumns("wide", indexed(19)).withLayout(LayoutKind.TIP, TipPolicy.defaults())
        .layout());
  }

  private static IndexColumn[] indexed(int count) {
    IndexColumn[] columns = new IndexColumn[count];
    for (int i = 0; i < count; i++) {
      columns[i] = IndexColumn.indexed("c" + i);
    }
    return columns;
  }

  @Test
  void aSnapshotTableWithAnotherRangeKeyNameIsRefusedAndLeftAlone() {
    StoreConfig config = freshConfig();
    createTable(config.snapshotTable(), List.of(hash("pkey"), range("sk")), List.of(string("pkey"), string("sk")));
    String before = shape(config.snapshotTable());

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a"))));

    assertEquals(config.snapshotTable(), e.table());
    assertEquals(Optional.empty(), e.index());
    assertEquals("hash key pkey (S), range key skey (S)", e.expected());
    assertEquals("hash key pkey (S), range key sk (S)", e.found());
    assertTrue(e.getMessage().startsWith("table '" + config.snapshotTable() + "' has hash key pkey (S), range key sk (S),"
        + " but esgen needs hash key pkey (S), range key skey (S); the table was left as it was"), e.getMessage());
    assertEquals(before, shape(config.snapshotTable()));
    // The check comes before any change to any table, so the missing ones were not created either.
    assertMissing(config.journalTable());
    assertMissing(config.tipTable());
  }

  @Test
  void aSnapshotTableWithANumericRangeKeyIsRefusedAndLeftAlone() {
    StoreConfig config = freshConfig();
    createTable(config.snapshotTable(), List.of(hash("pkey"), range("skey")), List.of(string("pkey"), number("skey")));
    String before = shape(config.snapshotTable());

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a"))));

    assertEquals(config.snapshotTable(), e.table());
    assertEquals("hash key pkey (S), range key skey (N)", e.found());
    assertTrue(e.getMessage().contains("'" + config.snapshotTable() + "'"), e.getMessage());
    assertTrue(e.getMessage().contains("range key skey (N), but esgen needs hash key pkey (S), range key skey (S)"),
        e.getMessage());
    assertEquals(before, shape(config.snapshotTable()));
  }

  @Test
  void aJournalWithoutRangeKeyIsRefusedBeforeTheOtherTablesAreTouched() {
    StoreConfig config = freshConfig();
    createTable(config.journalTable(), List.of(hash("pkey")), List.of(string("pkey")));
    createTable(config.snapshotTable(), List.of(hash("pkey"), range("skey")), List.of(string("pkey"), string("skey")));
    String journalBefore = shape(config.journalTable());
    String snapshotBefore = shape(config.snapshotTable());

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a"))));

    assertEquals(config.journalTable(), e.table());
    assertEquals("hash key pkey (S)", e.found());
    assertTrue(e.getMessage().contains("table '" + config.journalTable() + "' has hash key pkey (S), but esgen needs"
        + " hash key pkey (S), range key skey (S)"), e.getMessage());
    assertEquals(journalBefore, shape(config.journalTable()));
    // The snapshot table has esgen's keys; it keeps its missing index slot and its disabled TTL all the same.
    assertEquals(snapshotBefore, shape(config.snapshotTable()));
    assertMissing(config.tipTable());
  }

  @Test
  void aTipTableWithAStringIndexKeyIsRefusedAndGetsNoListingIndex() {
    StoreConfig config = freshConfig();
    createTable(config.tipTable(), List.of(hash("p"), range("i")), List.of(string("p"), string("i")));
    String before = shape(config.tipTable());

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing());

    assertEquals(config.tipTable(), e.table());
    assertEquals("hash key p (S), range key i (N)", e.expected());
    assertEquals("hash key p (S), range key i (S)", e.found());
    assertTrue(e.getMessage().contains("table '" + config.tipTable() + "'"), e.getMessage());
    assertEquals(before, shape(config.tipTable()));
  }

  @Test
  void anExistingSlotIndexWithOtherKeysIsRefusedAndNoFurtherSlotIsAdded() {
    StoreConfig config = freshConfig();
    createTable(config.snapshotTable(), List.of(hash("pkey"), range("skey")),
        List.of(string("pkey"), string("skey"), string("ix0_pk"), string("other")),
        GlobalSecondaryIndex.builder().indexName("esgen-index-0").keySchema(hash("ix0_pk"), range("other"))
            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build());
    String before = shape(config.snapshotTable());

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing(
            withColumns("two", IndexColumn.indexed("a"), IndexColumn.indexed("b"))));

    assertEquals(config.snapshotTable(), e.table());
    assertEquals(Optional.of("esgen-index-0"), e.index());
    assertEquals("hash key ix0_pk (S), range key aid (S)", e.expected());
    assertEquals("hash key ix0_pk (S), range key other (S)", e.found());
    assertTrue(e.getMessage().startsWith("index 'esgen-index-0' of table '" + config.snapshotTable() + "' has hash key"
        + " ix0_pk (S), range key other (S), but esgen needs hash key ix0_pk (S), range key aid (S)"), e.getMessage());
    // Without the check, esgen-index-1 would be added and TTL enabled.
    assertEquals(before, shape(config.snapshotTable()));
  }

  @Test
  void anIndexOfTheOwnersOnAnAttributeEsgenKeysOnWithAnotherTypeIsRefusedBeforeAnyTableIsTouched() {
    StoreConfig config = freshConfig();
    // aid is the range key of esgen's slot indexes, a string; a table defines each key attribute once.
    createTable(config.snapshotTable(), List.of(hash("pkey"), range("skey")),
        List.of(string("pkey"), string("skey"), number("aid")),
        GlobalSecondaryIndex.builder().indexName("by-number").keySchema(hash("aid"))
            .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build());
    String before = shape(config.snapshotTable());

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a"))));

    assertEquals(config.snapshotTable(), e.table());
    assertEquals("attribute aid (S), a key of index esgen-index-0", e.expected());
    assertEquals("attribute aid (N), a key of index by-number", e.found());
    assertTrue(e.getMessage().startsWith("table '" + config.snapshotTable() + "' has attribute aid (N), a key of index"
        + " by-number, but esgen needs attribute aid (S), a key of index esgen-index-0"), e.getMessage());
    assertEquals(before, shape(config.snapshotTable()));
    assertMissing(config.journalTable());
    assertMissing(config.tipTable());
  }

  @Test
  void aTableWithProvisionedCapacityGetsItsMissingSlotIndexesWithTheTablesCapacity() {
    StoreConfig config = freshConfig();
    client.createTable(b -> b.tableName(config.snapshotTable()).billingMode(BillingMode.PROVISIONED)
        .provisionedThroughput(t -> t.readCapacityUnits(7L).writeCapacityUnits(3L))
        .keySchema(hash("pkey"), range("skey")).attributeDefinitions(string("pkey"), string("skey")));
    client.waiter().waitUntilTableExists(b -> b.tableName(config.snapshotTable()));

    // DynamoDB refuses an index without capacity on such a table.
    new TableProvisioner(client, config).createTablesIfMissing(withColumns("one", IndexColumn.indexed("a")));

    GlobalSecondaryIndexDescription slot = client.describeTable(b -> b.tableName(config.snapshotTable())).table()
        .globalSecondaryIndexes().get(0);
    assertEquals("esgen-index-0", slot.indexName());
    assertEquals(7L, slot.provisionedThroughput().readCapacityUnits());
    assertEquals(3L, slot.provisionedThroughput().writeCapacityUnits());
  }

  @Test
  void anExistingAidIndexWithAStringSeqNrIsRefusedWhenTheConfigAsksForIt() {
    StoreConfig config = freshConfig().withAidIndex(true);
    createTable(config.journalTable(), List.of(hash("pkey"), range("skey")),
        List.of(string("pkey"), string("skey"), string("aid"), string("seq_nr")),
        GlobalSecondaryIndex.builder().indexName(JournalAttributes.AID_INDEX).keySchema(hash("aid"), range("seq_nr"))
            .projection(p -> p.projectionType(ProjectionType.ALL)).build());

    TableSchemaMismatchException e = assertThrows(TableSchemaMismatchException.class,
        () -> new TableProvisioner(client, config).createTablesIfMissing());

    assertEquals(config.journalTable(), e.table());
    assertEquals(Optional.of(JournalAttributes.AID_INDEX), e.index());
    assertEquals("hash key aid (S), range key seq_nr (N)", e.expected());
    assertEquals("hash key aid (S), range key seq_nr (S)", e.found());
    assertMissing(config.snapshotTable());
  }

  @Test
  void tablesCreatedByHandWithEsgensKeysAreAccepted() {
    StoreConfig config = freshConfig();
    createTable(config.journalTable(), List.of(hash("pkey"), range("skey")), List.of(string("pkey"), string("skey")));
    createTable(config.snapshotTable(), List.of(hash("pkey"), range("skey")),
        List.of(string("pkey"), string("skey"), string("ix0_pk"), string("aid")),
        TableProvisioner.slotIndex(0));

    assertEquals(List.of(config.tipTable()), new TableProvisioner(client, config).createTablesIfMissing(
        withColumns("two", IndexColumn.indexed("a"), IndexColumn.indexed("b"))));
    assertEquals(List.of("esgen-index-0", "esgen-index-1"), indexesOf(config.snapshotTable()));
  }

  /** A slot esgen never uses has no index to compare an infrastructure template with. */
  @Test
  void slotIndexesAreThoseOfTheSlotsEsgenUses() {
    assertEquals("esgen-index-19", TableProvisioner.slotIndex(19).indexName());
    for (int slot : new int[] {-1, 20, Integer.MAX_VALUE}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TableProvisioner.slotIndex(slot));
      assertEquals("slot must be 0 to 19 (a table has at most 20 global secondary indexes), was " + slot,
          e.getMessage());
    }
  }

  private void createTable(String name, List<KeySchemaElement> keys, List<AttributeDefinition> attributes,
      GlobalSecondaryIndex... indexes) {
    client.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
        .keySchema(keys).attributeDefinitions(attributes).globalSecondaryIndexes(indexes.length == 0 ? null : List.of(indexes)));
    client.waiter().waitUntilTableExists(b -> b.tableName(name));
  }

  /** Everything about a table the provisioner could change: keys, attributes, indexes and TTL. */
  private String shape(String table) {
    TableDescription description = client.describeTable(b -> b.tableName(table)).table();
    return description.keySchema() + " "
        + description.attributeDefinitions().stream().map(AttributeDefinition::toString).sorted().toList() + " "
        + description.globalSecondaryIndexes().stream().map(i -> i.indexName() + i.keySchema()).sorted().toList() + " "
        + client.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription().timeToLiveStatus();
  }

  private void assertMissing(String table) {
    assertThrows(ResourceNotFoundException.class, () -> client.describeTable(b -> b.tableName(table)));
  }

  private static KeySchemaElement hash(String name) {
    return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
  }

  private static KeySchemaElement range(String name) {
    return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
  }

  private static AttributeDefinition string(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
  }

  private static AttributeDefinition number(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.N).build();
  }

  private List<String> indexesOf(String table) {
    return client.describeTable(b -> b.tableName(table)).table().globalSecondaryIndexes().stream()
        .map(GlobalSecondaryIndexDescription::indexName).sorted().toList();
  }

}
