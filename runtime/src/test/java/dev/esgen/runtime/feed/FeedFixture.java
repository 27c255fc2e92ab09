package dev.esgen.runtime.feed;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.feed.PositionStore;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Tables of a test's own with the change feed enabled (journal, tip and positions), a store on them, and
 * what the tests read back: stored events and positions, straight from the tables.
 *
 * <p>The snapshot table is the one all tests share: the provisioner enables TTL on every snapshot table,
 * and DynamoDB Local runs each table's TTL job for good in a pool of ten threads that also builds
 * indexes, so a snapshot table per test would soon leave no thread to build an added index.
 */
final class FeedFixture {

  /** The two layouts a feed test runs on; the tip calves every few events so batches are written. */
  enum Layout {
    JOURNAL,
    TIP;

    CounterRepository counters(DynamoDbEventStore store) {
      return this == JOURNAL
          ? new CounterRepository(store)
          : new CounterRepository(store, new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 3, true));
    }
  }

  /** The key of the tests' read-model tables: the stream's id string. */
  static final String READ_MODEL_KEY = "id";

  final StoreConfig config;
  final DynamoDbEventStore store;

  FeedFixture() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    config = StoreConfig.defaults().withJournalTable("feed-j-" + suffix).withTipTable("feed-t-" + suffix)
        .withPositionsTable("feed-p-" + suffix);
    TableProvisioner provisioner = new TableProvisioner(TestDynamo.client(), config);
    provisioner.createTablesIfMissing();
    provisioner.enableChangeFeed();
    store = TestDynamo.store(config);
  }

  CounterRepository counters(Layout layout) {
    return layout.counters(store);
  }

  /** The stream of the table {@code layout} writes events to, read from its beginning. */
  TableStream stream(Layout layout) {
    return TableStream.of(layout == Layout.JOURNAL ? config.journalTable() : config.tipTable());
  }

  /** Every record the stream of the table {@code layout} writes events to holds so far, read once. */
  List<Record> records(Layout layout) {
    try (TableStream stream = stream(layout)) {
      return stream.readNewRecords();
    }
  }

  /** Every stored event of stream {@code id}, read back by the repository. */
  static List<RecordedEvent<CounterEvent>> stored(CounterRepository counters, String id) {
    try (Stream<RecordedEvent<CounterEvent>> events = counters.events(new CounterId(id))) {
      return events.toList();
    }
  }

  /** The stored position of {@code projection} in counter stream {@code id}; 0 when there is none. */
  long position(String projection, String id) {
    GetItemResponse response = TestDynamo.client().getItem(b -> b
        .tableName(config.positionsTable())
        .key(Map.of(
            PositionStore.PROJECTION, AttributeValue.fromS(projection),
            PositionStore.STREAM, AttributeValue.fromS(CounterRepository.NAME + "#" + id)))
        .consistentRead(true));
    return response.hasItem() && !response.item().isEmpty()
        ? Long.parseLong(response.item().get(PositionStore.SEQ_NR).n())
        : 0;
  }

  /** A fresh table for a read model, keyed by {@value #READ_MODEL_KEY} (S). */
  String createReadModelTable() {
    String table = "feed-rm-" + UUID.randomUUID().toString().substring(0, 8);
    TestDynamo.client().createTable(b -> b.tableName(table)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(AttributeDefinition.builder()
            .attributeName(READ_MODEL_KEY).attributeType(ScalarAttributeType.S).build())
        .keySchema(KeySchemaElement.builder().attributeName(READ_MODEL_KEY).keyType(KeyType.HASH).build()));
    TestDynamo.client().waiter().waitUntilTableExists(b -> b.tableName(table));
    return table;
  }

  /** The read-model item of stream {@code id} in {@code table}, empty when there is none. */
  static Map<String, AttributeValue> readModel(String table, String id) {
    GetItemResponse response = TestDynamo.client().getItem(b -> b
        .tableName(table).key(Map.of(READ_MODEL_KEY, AttributeValue.fromS(id))).consistentRead(true));
    return response.hasItem() ? response.item() : Map.of();
  }

  /** How many positions {@code projection} has stored. */
  long positions(String projection) {
    return TestDynamo.client().query(b -> b
        .tableName(config.positionsTable())
        .keyConditionExpression("#p = :p")
        .expressionAttributeNames(Map.of("#p", PositionStore.PROJECTION))
        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(projection)))
        .consistentRead(true)).count();
  }
}
