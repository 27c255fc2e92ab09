package dev.esgen.runtime.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.dynamodblocal.DynamoDbLocal;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.testing.TestDynamo;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * An append that touches a reservation item is sent again when its transaction only lost a race
 * ({@code TransactionConflict}), also when it only gives a unique value up: the release and another
 * append's reservation of the same value contend for one item.
 */
class ConflictResendTest {

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anAppendThatOnlyReleasesAValueIsSentAgainAfterATransactionConflict(LayoutKind layout) {
    IndexedCounterRepository counters = new IndexedCounterRepository(TestDynamo.store(), layout, 0);
    FirstTransactionConflicts conflict = new FirstTransactionConflicts();
    IndexedCounterRepository conflicted = new IndexedCounterRepository(storeWith(conflict), layout, 0);
    CounterId id = CounterId.random();
    String note = "released-" + UUID.randomUUID();
    counters.create(List.of(new CounterCreated(id, "c"), new Noted(note)));

    // A note over 64 characters clears the unique value: the append only releases it.
    conflicted.append(id, 1, new Noted("n".repeat(65)));

    assertEquals(2, conflict.transactions.get());
    assertEquals(Optional.empty(), counters.maybeFindByNote(note));
    assertTrue(counters.load(id).lastNote().isEmpty());
  }

  private static DynamoDbEventStore storeWith(ExecutionInterceptor interceptor) {
    TestDynamo.client(); // starts DynamoDB Local and creates the tables
    DynamoDbClient client = DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.addExecutionInterceptor(interceptor))
        .build();
    return DynamoDbEventStore.create(client, StoreConfig.defaults());
  }

  /**
   * Answers the first {@code TransactWriteItems} with a cancellation whose every reason is
   * {@code TransactionConflict}, as DynamoDB does when another transaction held one of the items. The
   * request is turned into a {@code DescribeLimits} call so that nothing of it is applied.
   */
  private static final class FirstTransactionConflicts implements ExecutionInterceptor {
    private static final ExecutionAttribute<Integer> CONFLICTED = new ExecutionAttribute<>("esgen.test.conflicted");

    final AtomicInteger transactions = new AtomicInteger();

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
      if (context.request() instanceof TransactWriteItemsRequest request && transactions.incrementAndGet() == 1) {
        attributes.putAttribute(CONFLICTED, request.transactItems().size());
        return context.httpRequest().toBuilder().putHeader("X-Amz-Target", "DynamoDB_20120810.DescribeLimits").build();
      }
      return context.httpRequest();
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
      if (attributes.getAttribute(CONFLICTED) == null) {
        return context.httpResponse();
      }
      // The body is replaced below, so DynamoDB's checksum of the original one no longer applies.
      return context.httpResponse().toBuilder().statusCode(400).removeHeader("x-amz-crc32").build();
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(
        Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
      Integer actions = attributes.getAttribute(CONFLICTED);
      if (actions == null) {
        return context.responseBody();
      }
      List<String> reasons = new ArrayList<>();
      for (int k = 0; k < actions; k++) {
        reasons.add("{\"Code\":\"TransactionConflict\",\"Message\":\"Transaction is ongoing for the item\"}");
      }
      String body = "{\"__type\":\"com.amazonaws.dynamodb.v20120810#TransactionCanceledException\","
          + "\"Message\":\"Transaction cancelled, please refer cancellation reasons for specific reasons\","
          + "\"CancellationReasons\":[" + String.join(",", reasons) + "]}";
      return Optional.of(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }
  }
}
