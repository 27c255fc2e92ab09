package dev.esgen.runtime.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * Two tries of one command racing, the other try (another store, playing another process) winning at the
 * worst moment for this one, on DynamoDB Local: this try must answer with the stored stream, as a repeat
 * does, not with a conflict that says nothing of its command was stored.
 */
class CommandTwinTest {

  /** Runs the twin at a chosen point of this try's requests, and can make this try's writes time out. */
  private static final class Twin implements ExecutionInterceptor {
    final AtomicReference<Runnable> afterCommandLookup = new AtomicReference<>();
    final AtomicReference<Runnable> beforeFirstWrite = new AtomicReference<>();
    volatile boolean writesTimeOut;

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
      if (context.request() instanceof GetItemRequest get && get.key().values().stream()
          .anyMatch(key -> key.s() != null && key.s().startsWith(CommandRecords.SORT_KEY_PREFIX))) {
        runOnce(afterCommandLookup);
      }
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
      if (context.request() instanceof TransactWriteItemsRequest) {
        runOnce(beforeFirstWrite);
        if (writesTimeOut) {
          throw ApiCallAttemptTimeoutException.create(100);
        }
      }
    }

    private static void runOnce(AtomicReference<Runnable> action) {
      Runnable once = action.getAndSet(null);
      if (once != null) {
        once.run();
      }
    }
  }

  private final Twin twin = new Twin();
  private final DynamoDbEventStore slowStore = DynamoDbEventStore.create(TestDynamo.clientWith(twin),
      StoreConfig.defaults().withRetryPolicy(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5))));

  private CounterRepository slow(CounterLayout layout) {
    return layout == CounterLayout.JOURNAL
        ? new CounterRepository(slowStore)
        : new CounterRepository(slowStore, new TipPolicy(32 * 1024, 0, true));
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anAppendWhoseTwinWinsBetweenTheCommandLookupAndTheLoadAnswersWithTheStoredStream(CounterLayout layout) {
    CounterRepository fast = layout.repository();
    CounterId id = CounterId.random();
    fast.create(new CounterCreated(id, "c"));
    twin.afterCommandLookup.set(() -> fast.append(id, 1, "deposit-1", List.of(new Incremented(5, "twin"))));

    Versioned<Counter> answered = slow(layout).append(id, 1, "deposit-1", List.of(new Incremented(5, "slow")));

    assertEquals(fast.loadVersioned(id), answered, "the stored stream, as for a repeat");
    assertEquals(5, answered.state().value(), "applied once");
  }

  @Test
  void anAsyncAppendWhoseTwinWinsBetweenTheCommandLookupAndTheLoadAnswersWithTheStoredStream() {
    IndexedCounterRepository fast = new IndexedCounterRepository(TestDynamo.store(), LayoutKind.JOURNAL, 0);
    CounterId id = CounterId.random();
    fast.create(new CounterCreated(id, "c"));
    twin.afterCommandLookup.set(() -> fast.append(id, 1, "deposit-1", List.of(new Incremented(5, "twin"))));
    try (DynamoDbAsyncClient client = AsyncDynamo.client(twin)) {
      AsyncCounterRepository slow =
          new AsyncCounterRepository(DynamoDbAsyncEventStore.create(client, StoreConfig.defaults()));

      Versioned<Counter> answered =
          slow.append(id, 1, "deposit-1", List.of(new Incremented(5, "slow"))).join();

      assertEquals(fast.loadVersioned(id), answered, "the stored stream, as for a repeat");
      assertEquals(5, answered.state().value(), "applied once");
    }
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aCreateWhoseTwinWinsWhileItsOwnWritesTimeOutAnswersWithTheStoredStream(CounterLayout layout) {
    CounterRepository fast = layout.repository();
    CounterId id = CounterId.random();
    twin.writesTimeOut = true;
    twin.beforeFirstWrite.set(() -> fast.create("open-1", List.of(new CounterCreated(id, "twin"))));

    Versioned<Counter> answered = slow(layout).create("open-1", List.of(new CounterCreated(id, "slow")));

    assertEquals(fast.loadVersioned(id), answered);
    assertEquals("twin", answered.state().name());
  }

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aTransactWhoseTwinWinsWhileItsOwnWritesTimeOutAnswersWithTheStoredStream(CounterLayout layout) {
    CounterRepository fast = layout.repository();
    CounterId id = CounterId.random();
    fast.create(new CounterCreated(id, "c"));
    twin.writesTimeOut = true;
    twin.beforeFirstWrite.set(() -> fast.transact(id, "deposit-1", counter -> counter.increment("twin")));

    Versioned<Counter> answered = slow(layout).transact(id, "deposit-1", counter -> counter.increment("slow"));

    assertEquals(fast.loadVersioned(id), answered);
    assertEquals(1, answered.state().value(), "applied once");
  }

  @Test
  void anAsyncTransactWhoseTwinWinsWhileItsOwnWritesTimeOutAnswersWithTheStoredStream() {
    IndexedCounterRepository fast = new IndexedCounterRepository(TestDynamo.store(), LayoutKind.JOURNAL, 0);
    CounterId id = CounterId.random();
    fast.create(new CounterCreated(id, "c"));
    twin.writesTimeOut = true;
    twin.beforeFirstWrite.set(() -> fast.transact(id, "deposit-1", counter -> counter.increment("twin")));
    try (DynamoDbAsyncClient client = AsyncDynamo.client(twin)) {
      AsyncCounterRepository slow = new AsyncCounterRepository(DynamoDbAsyncEventStore.create(client,
          StoreConfig.defaults().withRetryPolicy(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5)))));

      Versioned<Counter> answered = slow.transact(id, "deposit-1", counter -> counter.increment("slow")).join();

      assertEquals(fast.loadVersioned(id), answered);
      assertEquals(1, answered.state().value(), "applied once");
    }
  }
}
