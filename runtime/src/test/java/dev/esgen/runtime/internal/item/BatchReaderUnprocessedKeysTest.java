package dev.esgen.runtime.internal.item;

import static dev.esgen.runtime.testing.AsyncStoreFixture.await;
import static dev.esgen.runtime.testing.AsyncStoreFixture.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryBudget;
import dev.esgen.runtime.internal.retry.RetryBudgets;
import dev.esgen.runtime.internal.retry.RetryingAsyncClient;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.RequestCounter;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;

/**
 * {@code BatchGetItem} answers in part for two reasons: throttling, and a response that would pass 16 MB.
 * DynamoDB Local cuts responses at 16 MB as DynamoDB does (44 of 50 items of 380 KB), so these tests read
 * real partial responses; a response that processed no key at all is injected.
 */
class BatchReaderUnprocessedKeysTest {

  private static final String TABLE = StoreConfig.defaults().snapshotTable();
  private static final int ITEMS = 50;
  private static final int BODY_CHARS = 380_000;
  private static final List<Map<String, AttributeValue>> KEYS = new ArrayList<>();
  private static final Map<String, String> BODIES = new HashMap<>();

  private final RequestCounter requests = new RequestCounter();
  private final ProcessesNothing processesNothing = new ProcessesNothing();

  /** 50 items of 380 KB: 19 MB in all, more than one response carries. */
  @BeforeAll
  static void writeLargeItems() {
    String run = UUID.randomUUID().toString();
    for (int i = 0; i < ITEMS; i++) {
      String pkey = "batch-reader-" + run + "-" + i;
      Map<String, AttributeValue> key = Map.of("pkey", AttributeValue.fromS(pkey), "skey", AttributeValue.fromS("head"));
      String body = (i + "-").repeat(BODY_CHARS / (i + "-").length());
      Map<String, AttributeValue> item = new HashMap<>(key);
      item.put("body", AttributeValue.fromS(body));
      TestDynamo.client().putItem(b -> b.tableName(TABLE).item(item));
      KEYS.add(key);
      BODIES.put(pkey, body);
    }
  }

  @BeforeEach
  void reset() {
    requests.reset();
    processesNothing.remaining.set(0);
  }

  @Test
  void aResponseCutAt16MegabytesIsReadOnWithoutDrawingOnTheRetryBudget() {
    RetryBudget budget = new RetryBudget(RetryPolicy.noRetries(), RetryBudget.Observer.NONE);
    ConsistentBatchReader reader = new ConsistentBatchReader(syncClient(), TABLE, () -> budget);

    List<Map<String, AttributeValue>> items = reader.read(KEYS);

    assertAllItems(items);
    assertEquals(2, requests.of("BatchGetItem"), "44 items, then the 6 left");
    assertEquals(0, budget.failedAttempts());
  }

  @Test
  void aCallThatProcessedNoKeyPausesAndCountsAsAFailedAttempt() {
    processesNothing.remaining.set(1);
    RetryBudget budget = new RetryBudget(fastRetries(), RetryBudget.Observer.NONE);
    ConsistentBatchReader reader = new ConsistentBatchReader(syncClient(), TABLE, () -> budget);

    List<Map<String, AttributeValue>> items = reader.read(KEYS);

    assertAllItems(items);
    assertEquals(3, requests.of("BatchGetItem"), "nothing, then 44 items, then the 6 left");
    assertEquals(1, budget.failedAttempts());
  }

  @Test
  void callsThatProcessNoKeyFailOnceTheBudgetIsSpent() {
    processesNothing.remaining.set(1);
    RetryBudget budget = new RetryBudget(RetryPolicy.noRetries(), RetryBudget.Observer.NONE);
    ConsistentBatchReader reader = new ConsistentBatchReader(syncClient(), TABLE, () -> budget);

    assertThrows(StoreUnavailableException.class, () -> reader.read(KEYS));
    assertEquals(1, requests.of("BatchGetItem"));
  }

  @Test
  void anAsynchronousResponseCutAt16MegabytesIsReadOnWithoutDrawingOnTheRetryBudget() {
    try (DynamoDbAsyncClient client = AsyncDynamo.client(requests, processesNothing)) {
      OperationRecorder.Operation operation = operation(RetryPolicy.noRetries());

      List<Map<String, AttributeValue>> items = await(asyncReader(client).read(KEYS, true, operation));

      assertAllItems(items);
      assertEquals(2, requests.of("BatchGetItem"), "44 items, then the 6 left");
      assertEquals(0, operation.budget().failedAttempts());
    }
  }

  @Test
  void anAsynchronousCallThatProcessedNoKeyPausesAndCountsAsAFailedAttempt() {
    processesNothing.remaining.set(1);
    try (DynamoDbAsyncClient client = AsyncDynamo.client(requests, processesNothing)) {
      OperationRecorder.Operation operation = operation(fastRetries());

      List<Map<String, AttributeValue>> items = await(asyncReader(client).read(KEYS, true, operation));

      assertAllItems(items);
      assertEquals(3, requests.of("BatchGetItem"), "nothing, then 44 items, then the 6 left");
      assertEquals(1, operation.budget().failedAttempts());
    }
  }

  @Test
  void asynchronousCallsThatProcessNoKeyFailOnceTheBudgetIsSpent() {
    processesNothing.remaining.set(1);
    try (DynamoDbAsyncClient client = AsyncDynamo.client(requests, processesNothing)) {
      OperationRecorder.Operation operation = operation(RetryPolicy.noRetries());

      assertInstanceOf(StoreUnavailableException.class,
          failureOf(asyncReader(client).read(KEYS, true, operation)));
      assertEquals(1, requests.of("BatchGetItem"));
    }
  }

  private DynamoDbClient syncClient() {
    return TestDynamo.clientWith(requests, processesNothing);
  }

  private static AsyncBatchReader asyncReader(DynamoDbAsyncClient client) {
    return new AsyncBatchReader(new RetryingAsyncClient(client, ForkJoinPool.commonPool()), TABLE);
  }

  private static OperationRecorder.Operation operation(RetryPolicy policy) {
    return new OperationRecorder(StoreListener.NONE, new RetryBudgets(policy)).begin("counter", "findAll");
  }

  private static RetryPolicy fastRetries() {
    return new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(1));
  }

  private static void assertAllItems(List<Map<String, AttributeValue>> items) {
    Map<String, String> read = new HashMap<>();
    for (Map<String, AttributeValue> item : items) {
      read.put(item.get("pkey").s(), item.get("body").s());
    }
    assertEquals(ITEMS, items.size(), "each item once");
    assertEquals(BODIES, read);
  }

  /** Turns the next responses into ones that processed none of their keys, as a throttled call does. */
  private static final class ProcessesNothing implements ExecutionInterceptor {
    final AtomicInteger remaining = new AtomicInteger();

    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
      if (context.request() instanceof BatchGetItemRequest request && remaining.getAndDecrement() > 0) {
        return BatchGetItemResponse.builder().responses(Map.of()).unprocessedKeys(request.requestItems()).build();
      }
      return context.response();
    }
  }
}
