package dev.esgen.runtime.tip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.dynamodblocal.DynamoDbLocal;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.runtime.testing.TipItems;
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
 * Writes whose response is lost after DynamoDB applied them: the SDK sends the request again, its
 * condition fails against the write it already made, and esgen must still report the write as done,
 * exactly once, also when another writer appended in between.
 */
class LostResponseTest {

  private static final TipPolicy SNAPSHOTTING_TIP = new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 0, true);

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
  void tipKeepsTheEtagsOfItsLatestAppendsOnly() {
    CounterRepository counters = new CounterRepository(TestDynamo.store(), SNAPSHOTTING_TIP);
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    for (int k = 0; k < TipAttributes.RECENT_ETAG_COUNT + 3; k++) {
      counters.transact(id, c -> c.increment("x"));
    }

    Map<String, AttributeValue> tip = TipItems.of(id.value()).get(0);
    List<AttributeValue> recent = tip.get(TipAttributes.RECENT_ETAGS).l();
    assertEquals(TipAttributes.RECENT_ETAG_COUNT, recent.size());
    assertEquals(tip.get(TipAttributes.ETAG), recent.get(recent.size() - 1));
    assertEquals(TipAttributes.RECENT_ETAG_COUNT, recent.stream().distinct().count());
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
    TestDynamo.client(); // starts DynamoDB Local and creates the tables
    DynamoDbClient client = DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.addExecutionInterceptor(lose))
        .build();
    return DynamoDbEventStore.create(client, StoreConfig.defaults());
  }

  /**
   * Turns the response to the first request of one type into an HTTP 500 after DynamoDB applied it, so
   * the SDK sends it again; runs the action set with {@link #then} before the SDK's retry.
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
