package dev.esgen.runtime.tip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.internal.storage.AppendIds;
import dev.esgen.runtime.internal.tip.TipAttributes;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.runtime.testing.TipItems;
import dev.esgen.test.DynamoDbLocal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Writes whose response is lost after DynamoDB applied them: esgen cannot tell from the failure whether
 * the write was applied, reads the stream back, finds its append id, and reports the write as done,
 * exactly once, also when other writers appended in between.
 */
class LostResponseTest {

  private static final TipPolicy SNAPSHOTTING_TIP = new TipPolicy(32 * 1024, 0, true);

  @Test
  void tipCreateWhoseResponseIsLostSucceedsOnce() {
    LoseResponse lose = new LoseResponse(PutItemRequest.class);
    CounterRepository counters = new CounterRepository(storeLosing(lose), SNAPSHOTTING_TIP);
    CounterId id = CounterId.random();

    Versioned<Counter> created = counters.create(new CounterCreated(id, "c"));

    assertEquals(1, lose.lost());
    assertEquals(1, created.version());
    assertEquals(List.of(new CounterCreated(id, "c")), TipItems.events(counters, id.value()));
  }

  @Test
  void tipCreateWhoseResponseIsLostWhileAnotherWriterAppendsSucceedsOnce() {
    LoseResponse lose = new LoseResponse(PutItemRequest.class);
    CounterRepository counters = new CounterRepository(storeLosing(lose), SNAPSHOTTING_TIP);
    CounterRepository other = new CounterRepository(TestDynamo.store(), SNAPSHOTTING_TIP);
    CounterId id = CounterId.random();
    lose.then(() -> other.transact(id, c -> c.increment("other")));

    counters.create(new CounterCreated(id, "c"));

    assertEquals(1, lose.lost());
    assertEquals(List.of(new CounterCreated(id, "c"), new Incremented(1, "other")),
        TipItems.events(counters, id.value()));
  }

  @Test
  void tipAppendWhoseResponseIsLostIsStoredOnce() {
    LoseResponse lose = new LoseResponse(UpdateItemRequest.class);
    CounterRepository counters = new CounterRepository(storeLosing(lose), SNAPSHOTTING_TIP);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));

    Versioned<Counter> appended = counters.transact(id, c -> c.increment("mine"));

    assertEquals(1, lose.lost());
    assertEquals(2, appended.version());
    assertEquals(List.of(new CounterCreated(id, "c"), new Incremented(1, "mine")),
        TipItems.events(counters, id.value()));
  }

  @Test
  void tipAppendWrittenStraightToABatchWhoseResponseIsLostIsStoredOnce() {
    // A 2 KB note alone is past the 1 KB tip: it goes to a batch item, where the read-back must find it
    // (without retries: see the next test).
    LoseResponse lose = new LoseResponse(TransactWriteItemsRequest.class);
    TipPolicy smallTip = new TipPolicy(1024, 0, true);
    CounterRepository counters = new CounterRepository(
        storeLosing(lose, StoreConfig.defaults().withRetryPolicy(RetryPolicy.noRetries())), smallTip);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));

    Versioned<Counter> appended = counters.transact(id, c -> List.of(new Noted("n".repeat(2_000))));

    assertEquals(1, lose.lost());
    assertEquals(2, appended.version());
    assertEquals(List.of(new CounterCreated(id, "c"), new Noted("n".repeat(2_000))),
        TipItems.events(counters, id.value()));
    assertEquals(1, TipItems.batches(id.value()));
  }

  @Test
  void tipAppendWrittenToABatchOfItsOwnWhoseResponseIsLostIsStoredOnce() {
    // 300 KB in the tip and 300 KB more do not fit one batch: the new event gets a batch of its own, the
    // second of the transaction, where the read-back must find it. Without retries, as a resend with the
    // same token would be answered as done without any read-back.
    LoseResponse lose = new LoseResponse(TransactWriteItemsRequest.class);
    CounterRepository counters = new CounterRepository(
        storeLosing(lose, StoreConfig.defaults().withRetryPolicy(RetryPolicy.noRetries())), SNAPSHOTTING_TIP);
    CounterId id = CounterId.random();
    counters.create(List.of(new CounterCreated(id, "c"), new Noted("x".repeat(300_000))));

    Versioned<Counter> appended = counters.transact(id, c -> List.of(new Noted("y".repeat(300_000))));

    assertEquals(1, lose.lost());
    assertEquals(2, appended.version());
    assertEquals(List.of(new CounterCreated(id, "c"), new Noted("x".repeat(300_000)), new Noted("y".repeat(300_000))),
        TipItems.events(counters, id.value()));
    assertEquals(2, TipItems.batches(id.value()));
    assertEquals(appended, counters.loadVersioned(id));
  }

  @Test
  void tipAppendWhoseResponseIsLostWhileAnotherWriterAppendsIsStoredOnce() {
    LoseResponse lose = new LoseResponse(UpdateItemRequest.class);
    CounterRepository counters = new CounterRepository(storeLosing(lose), SNAPSHOTTING_TIP);
    CounterRepository other = new CounterRepository(TestDynamo.store(), SNAPSHOTTING_TIP);
    CounterId id = CounterId.random();
    other.create(new CounterCreated(id, "c"));
    lose.then(() -> other.transact(id, c -> c.increment("other")));

    Versioned<Counter> appended = counters.transact(id, c -> c.increment("mine"));

    assertEquals(1, lose.lost());
    // the state this writer wrote, not the newer one
    assertEquals(2, appended.version());
    assertEquals(1, appended.state().value());
    assertEquals(List.of(new CounterCreated(id, "c"), new Incremented(1, "mine"), new Incremented(1, "other")),
        TipItems.events(counters, id.value()));
    assertEquals(3, counters.loadVersioned(id).version());
  }

  @Test
  void tipAppendWhoseResponseIsLostWhileManyOthersAppendAndCalveIsStoredOnce() {
    // Four events per tip: the ten appends in between calve this append's event into a batch, where the
    // read-back must find it.
    TipPolicy smallTip = new TipPolicy(32 * 1024, 4, true);
    LoseResponse lose = new LoseResponse(UpdateItemRequest.class);
    CounterRepository counters = new CounterRepository(storeLosing(lose), smallTip);
    CounterRepository other = new CounterRepository(TestDynamo.store(), smallTip);
    CounterId id = CounterId.random();
    other.create(new CounterCreated(id, "c"));
    lose.then(() -> {
      for (int k = 0; k < 10; k++) {
        other.transact(id, c -> c.increment("other"));
      }
    });

    Versioned<Counter> appended = counters.transact(id, c -> c.increment("mine"));

    assertEquals(1, lose.lost());
    assertEquals(2, appended.version());
    List<CounterEvent> events = TipItems.events(counters, id.value());
    assertEquals(12, events.size());
    assertEquals(new Incremented(1, "mine"), events.get(1));
    assertEquals(1, events.stream().filter(e -> e.equals(new Incremented(1, "mine"))).count());
    assertEquals(12, counters.loadVersioned(id).version());
  }

  @Test
  void everyAppendStoresItsAppendIdWithItsFirstEventOnly() {
    CounterRepository counters = new CounterRepository(TestDynamo.store(), SNAPSHOTTING_TIP);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, c -> List.of(new Incremented(1, "a"), new Incremented(2, "b")));
    counters.transact(id, c -> c.increment("c"));

    Map<String, AttributeValue> tip = TipItems.of(id.value()).get(0);
    List<AttributeValue> stored = tip.get(TipAttributes.EVENTS).l();
    List<String> appendIds = stored.stream()
        .map(e -> e.m().get(TipAttributes.APPEND_ID))
        .map(v -> v == null ? null : v.s())
        .toList();
    assertEquals(4, appendIds.size());
    assertNotNull(appendIds.get(0));
    assertNotNull(appendIds.get(1));
    assertNull(appendIds.get(2));
    assertNotNull(appendIds.get(3));
    assertEquals(3, new HashSet<>(List.of(appendIds.get(0), appendIds.get(1), appendIds.get(3))).size());
    assertEquals(AppendIds.LENGTH, appendIds.get(0).length());
  }

  @Test
  void journalAppendWhoseResponseIsLostWhileAnotherWriterAppendsIsStoredOnce() {
    LoseResponse lose = new LoseResponse(TransactWriteItemsRequest.class);
    CounterRepository counters = new CounterRepository(storeLosing(lose));
    CounterRepository other = new CounterRepository(TestDynamo.store());
    CounterId id = CounterId.random();
    other.create(new CounterCreated(id, "c"));
    lose.then(() -> other.transact(id, c -> c.increment("other")));

    counters.transact(id, c -> c.increment("mine"));

    assertEquals(1, lose.lost());
    assertEquals(3, TestDynamo.streamItems("journal", CounterRepository.NAME, id.value()).size());
    Versioned<Counter> stored = counters.loadVersioned(id);
    assertEquals(3, stored.version());
    assertEquals(2, stored.state().value());
  }

  /** A store whose client loses the response of the first request that {@code lose} picks. */
  private static DynamoDbEventStore storeLosing(LoseResponse lose) {
    return storeLosing(lose, StoreConfig.defaults());
  }

  /** As {@link #storeLosing(LoseResponse)}, with {@code config}. */
  private static DynamoDbEventStore storeLosing(LoseResponse lose, StoreConfig config) {
    TestDynamo.client(); // starts DynamoDB Local and creates the tables
    DynamoDbClient client = DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.addExecutionInterceptor(lose))
        .build();
    return DynamoDbEventStore.create(client, config);
  }

  /**
   * Turns the response to the first request of one type into an HTTP 500 after DynamoDB applied it; runs
   * the action set with {@link #then} before esgen sees the failure.
   */
  private static final class LoseResponse implements ExecutionInterceptor {
    private final Class<? extends SdkRequest> type;
    private final AtomicInteger remaining = new AtomicInteger(1);
    private final AtomicReference<Runnable> between = new AtomicReference<>(() -> {});

    LoseResponse(Class<? extends SdkRequest> type) {
      this.type = type;
    }

    void then(Runnable action) {
      between.set(action);
    }

    int lost() {
      return 1 - remaining.get();
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
      if (type.isInstance(context.request()) && remaining.compareAndSet(1, 0)) {
        between.get().run();
        return context.httpResponse().toBuilder().statusCode(500).build();
      }
      return context.httpResponse();
    }
  }
}
