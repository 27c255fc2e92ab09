package dev.esgen.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * What every asynchronous repository test against DynamoDB Local starts from: an async client of
 * {@link TestDynamo}'s server with {@link AsyncFaults} injected, opened before each test and closed after
 * it, and a listener that keeps every operation and failed attempt the test's stores report.
 *
 * <pre>{@code
 * @RegisterExtension
 * final AsyncStoreFixture async = new AsyncStoreFixture();
 *
 * @Test
 * void retries() {
 *   AsyncCounterRepository counters = new AsyncCounterRepository(async.store(AsyncStoreFixture.attempts(3, 5)));
 *   async.faults().enqueue(TransactWriteItemsRequest.class, AsyncFaults.Fault.THROTTLED);
 *   await(counters.create(new CounterCreated(id, "retried")));
 *   assertEquals(1, async.failedAttempts().size());
 * }
 * }</pre>
 */
public final class AsyncStoreFixture implements BeforeEachCallback, AfterEachCallback {

  private final AsyncFaults faults = new AsyncFaults();
  private final RecordingListener listener = new RecordingListener();
  private DynamoDbAsyncClient client;

  @Override
  public void beforeEach(ExtensionContext context) {
    client = AsyncDynamo.client(faults);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    client.close();
  }

  /** The faults the client's requests meet, and the requests it started. */
  public AsyncFaults faults() {
    return faults;
  }

  /** Every operation the stores of {@link #store} and {@link #listener} reported, in the order they ended. */
  public List<OperationMetrics> operations() {
    return listener.operations();
  }

  /** Every failed attempt those stores reported. */
  public List<FailedAttempt> failedAttempts() {
    return listener.failedAttempts();
  }

  /** The listener that keeps {@link #operations()} and {@link #failedAttempts()}, for stores made otherwise. */
  public StoreListener listener() {
    return listener;
  }

  /** The test's async client, faults injected. */
  public DynamoDbAsyncClient client() {
    return client;
  }

  /** A new store on the test's client with {@code config}, reporting to {@link #listener()}. */
  public AsyncEventStore store(StoreConfig config) {
    return DynamoDbAsyncEventStore.create(client, config.withListener(listener));
  }

  /** The operations of the requests the client started since the faults were last cleared, in order. */
  public List<String> sent() {
    return faults.started().stream().map(AsyncFaults.Started::operation).toList();
  }

  /** The default settings with {@code attempts} attempts per operation and a fixed pause between them. */
  public static StoreConfig attempts(int attempts, long pauseMillis) {
    return StoreConfig.defaults().withRetryPolicy(
        new RetryPolicy(attempts, Duration.ofMillis(pauseMillis), Duration.ofMillis(pauseMillis)));
  }

  /** What {@code future} completes with; a test that waits longer than 30 seconds has hung. */
  public static <T> T await(CompletableFuture<T> future) {
    return future.orTimeout(30, TimeUnit.SECONDS).join();
  }

  /** Every item {@code listing} lists, read page after page of {@code pageSize} items. */
  public static <T> List<T> allPages(int pageSize, Function<PageRequest, CompletableFuture<Page<T>>> listing) {
    List<T> items = new ArrayList<>();
    PageRequest request = PageRequest.first(pageSize);
    while (true) {
      Page<T> page = await(listing.apply(request));
      items.addAll(page.items());
      if (page.nextCursor().isEmpty()) {
        return items;
      }
      request = PageRequest.after(page.nextCursor().get(), pageSize);
    }
  }

  /** The failure {@code future} ends with, as {@code get()} reports it. */
  public static Throwable failureOf(CompletableFuture<?> future) {
    ExecutionException failed = assertThrows(ExecutionException.class, () -> future.get(30, TimeUnit.SECONDS));
    return failed.getCause();
  }
}
