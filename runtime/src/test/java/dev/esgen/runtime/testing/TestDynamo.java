package dev.esgen.runtime.testing;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.test.DynamoDbLocal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * One DynamoDB Local, one client and the default tables (with the indexed counter's index slots) per
 * test JVM. Tests keep apart by
 * using fresh aggregate ids.
 */
public final class TestDynamo {

  private static final RequestCounter REQUESTS = new RequestCounter();
  private static final CapacityRecorder CAPACITY = new CapacityRecorder();
  private static DynamoDbClient client;

  private TestDynamo() {}

  public static synchronized DynamoDbClient client() {
    if (client == null) {
      client = DynamoDbClient.builder()
          .endpointOverride(DynamoDbLocal.shared().endpoint())
          .region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
          .httpClient(UrlConnectionHttpClient.create())
          .overrideConfiguration(c -> c.addExecutionInterceptor(REQUESTS).addExecutionInterceptor(CAPACITY))
          .build();
      // The indexed counter's definition gives both the snapshot and the tip table their index slots.
      new TableProvisioner(client, StoreConfig.defaults()).createTablesIfMissing(
          IndexedCounterRepository.definition(EsgenJson.newObjectMapper(), LayoutKind.TIP, 0));
    }
    return client;
  }

  /**
   * Another client of the shared DynamoDB Local (started, with the default tables, if it was not), whose
   * requests go through {@code interceptors}: faults a test injects, say.
   */
  public static DynamoDbClient clientWith(ExecutionInterceptor... interceptors) {
    client();
    return DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> List.of(interceptors).forEach(c::addExecutionInterceptor))
        .build();
  }

  /** Counts every request of {@link #client()}. */
  public static RequestCounter requests() {
    return REQUESTS;
  }

  /** Records the capacity of every write of {@link #client()}, per table and index. */
  public static CapacityRecorder capacity() {
    return CAPACITY;
  }

  public static DynamoDbEventStore store() {
    return store(StoreConfig.defaults());
  }

  public static DynamoDbEventStore store(StoreConfig config) {
    return DynamoDbEventStore.create(client(), config);
  }
  /** What repositories reach of {@code store}, for tests that read or write below them (a layout, the recorder). */
  public static StoreInternals internals(EventStore store) {
    return StoreAccess.internals(store).orElseThrow();
  }


  /** Every item of one stream in {@code table}, in sort-key order (head row first in the snapshot table). */
  public static List<Map<String, AttributeValue>> streamItems(String table, String aggregate, String aid) {
    JournalKeys keys = new JournalKeys(aggregate, 4);
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      QueryResponse page = client().query(b -> b
          .tableName(table)
          .keyConditionExpression("pkey = :p AND begins_with(skey, :prefix)")
          .expressionAttributeValues(Map.of(
              ":p", AttributeValue.fromS(keys.partitionKey(aid)),
              ":prefix", AttributeValue.fromS(aggregate + "-" + aid + "-")))
          .consistentRead(true)
          .exclusiveStartKey(from));
      page.items().stream().filter(i -> aid.equals(i.get(JournalAttributes.AID).s())).forEach(items::add);
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    return items;
  }

  /** The number of items in {@code table}. */
  public static long itemCount(String table) {
    long count = 0;
    Map<String, AttributeValue> start = null;
    do {
      Map<String, AttributeValue> from = start;
      var page = client().scan(b -> b.tableName(table).select(Select.COUNT).consistentRead(true).exclusiveStartKey(from));
      count += page.count();
      start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (start != null);
    return count;
  }

  public static long seqNr(Map<String, AttributeValue> item) {
    return Long.parseLong(item.get(JournalAttributes.SEQ_NR).n());
  }
}
