package dev.esgen.processor.functional;

import dev.esgen.processor.functional.bank.BankAccountRepository;
import dev.esgen.processor.functional.catalog.ProductRepository;
import dev.esgen.processor.functional.library.BookRepository;
import dev.esgen.processor.functional.ticket.TicketRepository;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.test.DynamoDbLocal;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;

/**
 * One DynamoDB Local client per test JVM with tables provisioned from the generated definitions, and a
 * recorder of the capacity every transaction consumed (asked for with ReturnConsumedCapacity=INDEXES).
 */
final class IndexDynamo {

  static final StoreConfig CONFIG =
      StoreConfig.defaults().withJournalTable("ix-journal").withSnapshotTable("ix-snapshot");

  private static final CapacityRecorder CAPACITY = new CapacityRecorder();
  private static DynamoDbClient client;

  private IndexDynamo() {}

  static synchronized DynamoDbClient client() {
    if (client == null) {
      client = DynamoDbClient.builder()
          .endpointOverride(DynamoDbLocal.shared().endpoint())
          .region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
          .httpClient(UrlConnectionHttpClient.create())
          .overrideConfiguration(c -> c.addExecutionInterceptor(CAPACITY))
          .build();
      var mapper = EsgenJson.newObjectMapper();
      new TableProvisioner(client, CONFIG).createTablesIfMissing(
          ProductRepository.definition(mapper),
          BankAccountRepository.definition(mapper),
          BookRepository.definition(mapper),
          TicketRepository.definition(mapper));
    }
    return client;
  }

  static DynamoDbEventStore store() {
    return DynamoDbEventStore.create(client(), CONFIG);
  }

  static CapacityRecorder capacity() {
    return CAPACITY;
  }

  /** Asks every TransactWriteItems for its consumed capacity per table and index, and keeps the answers. */
  static final class CapacityRecorder implements ExecutionInterceptor {
    private final List<List<ConsumedCapacity>> recorded = new ArrayList<>();

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
      if (context.request() instanceof TransactWriteItemsRequest request) {
        return request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.INDEXES).build();
      }
      return context.request();
    }

    @Override
    public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
      if (context.response() instanceof TransactWriteItemsResponse response) {
        synchronized (this) {
          recorded.add(response.consumedCapacity());
        }
      }
    }

    /** Runs {@code action} and returns the capacity its transactions consumed (one list per transaction). */
    synchronized List<List<ConsumedCapacity>> during(Runnable action) {
      recorded.clear();
      action.run();
      List<List<ConsumedCapacity>> result = List.copyOf(recorded);
      recorded.clear();
      return result;
    }
  }
}
