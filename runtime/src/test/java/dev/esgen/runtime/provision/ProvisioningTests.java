package dev.esgen.runtime.provision;

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
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What the provisioning tests share. Those that make snapshot tables run on a DynamoDB Local of their own,
 * in a JVM of its own: DynamoDB Local builds added indexes on a small thread pool that each table with
 * TTL on keeps busy for good, and the provisioner turns TTL on for every snapshot table it makes.
 *
 * <pre>{@code
 * server = DynamoDbLocal.start(DynamoDbLocal.Mode.SEPARATE_JVM);
 * client = ProvisioningTests.client(server);
 * new TableProvisioner(client, ProvisioningTests.freshConfig()).createTablesIfMissing();
 * }</pre>
 */
final class ProvisioningTests {

  private ProvisioningTests() {}

  /** A client of {@code server} that runs {@code interceptors} around each request. */
  static DynamoDbClient client(DynamoDbLocal server, ExecutionInterceptor... interceptors) {
    return DynamoDbClient.builder()
        .endpointOverride(server.endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> List.of(interceptors).forEach(c::addExecutionInterceptor))
        .build();
  }

  /** Journal, snapshot and tip tables of names no other test uses. */
  static StoreConfig freshConfig() {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    return StoreConfig.defaults().withJournalTable("j-" + suffix).withSnapshotTable("s-" + suffix)
        .withTipTable("t-" + suffix);
  }

  /** The counter aggregate as type {@code name} with {@code columns}, which hold no values. */
  static AggregateDefinition<Counter, CounterId, CounterEvent> withColumns(String name, IndexColumn... columns) {
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
