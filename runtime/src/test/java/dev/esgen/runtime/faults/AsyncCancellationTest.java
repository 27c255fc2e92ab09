package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Cancelling the future an asynchronous {@code transact} returned, or letting {@code orTimeout} give up on
 * it, while the operation is still reading (its load throttled, waiting for the retry pause): the caller was
 * told the command did not complete, so it must not append afterwards. (Its decision may still run: the
 * load it waited for completes.)
 */
class AsyncCancellationTest {

  /** How a caller gives up on a command's future. */
  enum GivingUp {
    CANCEL {
      @Override
      void giveUp(CompletableFuture<?> command) {
        assertTrue(command.cancel(true), "cancelled while its load waits to be sent again");
      }
    },
    TIME_OUT {
      @Override
      void giveUp(CompletableFuture<?> command) {
        command.orTimeout(50, TimeUnit.MILLISECONDS);
      }
    };

    abstract void giveUp(CompletableFuture<?> command);
  }

  static Stream<Arguments> layoutsAndWaysToGiveUp() {
    return Stream.of(Layout.JOURNAL, Layout.TIP)
        .flatMap(layout -> Stream.of(GivingUp.values()).map(way -> Arguments.of(layout, way)));
  }

  @ParameterizedTest
  @MethodSource("layoutsAndWaysToGiveUp")
  void aTransactGivenUpBeforeItsAppendWasSentAppendsNothing(Layout layout, GivingUp way) throws Exception {
    FaultInjector faults = FaultInjector.builder(3).build();
    try (DynamoDbAsyncClient client = AsyncDynamo.client(faults)) {
      AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = new AsyncEventSourcedRepository<>(
          DynamoDbAsyncEventStore.create(client, StoreConfig.defaults()
              .withRetryPolicy(new RetryPolicy(6, Duration.ofMillis(300), Duration.ofMillis(300)))),
          layout.counters(TestDynamo.store()).definition()) {};
      CounterRepository clean = layout.counters(TestDynamo.store());
      CounterId id = CounterId.random();
      clean.create(new CounterCreated(id, "c"));
      faults.enqueue(GetItemRequest.class, Fault.THROTTLED, Fault.THROTTLED);
      AtomicInteger decided = new AtomicInteger();
      AtomicReference<CompletableFuture<?>> givenUp = new AtomicReference<>();

      CompletableFuture<Versioned<Counter>> command = counters.transact(id, c -> {
        // The pauses after the throttled loads are jittered down to nothing now and then, and a time-out of
        // 50 ms could then come after the append: the decision waits until the caller has given up.
        awaitGivenUp(givenUp);
        decided.incrementAndGet();
        return c.increment("cancelled");
      });
      way.giveUp(command);
      givenUp.set(command);
      // The throttled load's two pauses pass, the load completes and the command decides; then its append
      // would be sent.
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (decided.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(1, decided.get(), "the command went on to decide after its caller cancelled it");
      Thread.sleep(500);
      assertEquals(0, StoredStreams.read(clean.definition(), id.value()).count(new Incremented(1, "cancelled")),
          "the cancelled command was appended");
    }
  }

  /**
   * Until {@code command} is set and done, and a little longer: the future is done before the callbacks its
   * completion runs (esgen's among them) have all run.
   */
  private static void awaitGivenUp(AtomicReference<CompletableFuture<?>> command) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    try {
      while ((command.get() == null || !command.get().isDone()) && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static Stream<Arguments> refusedWrites() {
    return Stream.of(
        // TransactWriteItems throttled: nothing applied, resent after the pause by the retrying client.
        Arguments.of(Layout.JOURNAL, TransactWriteItemsRequest.class, Fault.THROTTLED),
        // A single UpdateItem throttled: likewise.
        Arguments.of(Layout.TIP, UpdateItemRequest.class, Fault.THROTTLED),
        // An UpdateItem failing with a 5xx before it was sent: read back, found not stored, sent again after
        // the pause.
        Arguments.of(Layout.TIP, UpdateItemRequest.class, Fault.SERVER_ERROR));
  }

  /** Cancelled during the pause before its refused append is sent again: the append is not sent again. */
  @ParameterizedTest
  @MethodSource("refusedWrites")
  void aTransactCancelledWhileItsRefusedAppendWaitsToBeResentAppendsNothing(
      Layout layout, Class<? extends SdkRequest> write, Fault fault) throws Exception {
    FaultInjector faults = FaultInjector.builder(7).build();
    AtomicReference<CompletableFuture<Versioned<Counter>>> command = new AtomicReference<>();
    ExecutionInterceptor cancelOnRefusal = new ExecutionInterceptor() {
      @Override
      public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        // The refused write's failure reaches esgen after this: the caller gives up before any pause starts,
        // and the command's future fails with CancellationException below only if it is cancelled here.
        if (write.isInstance(context.request()) && faults.injectedTotal() == 1) {
          while (command.get() == null) {
            Thread.onSpinWait();
          }
          command.get().cancel(true);
        }
      }
    };
    try (DynamoDbAsyncClient client = AsyncDynamo.client(faults, cancelOnRefusal)) {
      AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = new AsyncEventSourcedRepository<>(
          DynamoDbAsyncEventStore.create(client, StoreConfig.defaults()
              .withRetryPolicy(new RetryPolicy(6, Duration.ofMillis(50), Duration.ofMillis(50)))),
          layout.counters(TestDynamo.store()).definition()) {};
      CounterRepository clean = layout.counters(TestDynamo.store());
      CounterId id = CounterId.random();
      clean.create(new CounterCreated(id, "c"));
      faults.enqueue(write, fault);

      command.set(counters.transact(id, c -> c.increment("cancelled")));
      assertThrows(CancellationException.class, () -> command.get().get(10, TimeUnit.SECONDS));
      assertEquals(1, faults.injectedTotal(), "the first append was refused");
      Thread.sleep(1_000);   // the pause (at most 100 ms) and a read-back pass

      assertEquals(0, StoredStreams.read(clean.definition(), id.value()).count(new Incremented(1, "cancelled")),
          "the command cancelled during the pause was appended (" + layout + ", " + fault + ")");
    }
  }

  /**
   * The tip's write failed with an outcome it could not know (a server error), reading back found nothing,
   * and the resend was throttled: a command cancelled then sends nothing more, and ends as unknown, not as
   * "nothing applied", since the first attempt may still land.
   */
  @Test
  void aTipWriteCancelledBeforeItsResendAfterAnUnknownOutcomeEndsUnknown() throws Exception {
    FaultInjector faults = FaultInjector.builder(7).build();
    AtomicReference<CompletableFuture<Versioned<Counter>>> command = new AtomicReference<>();
    ExecutionInterceptor cancelOnThrottledResend = new ExecutionInterceptor() {
      @Override
      public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof UpdateItemRequest && faults.injectedTotal() == 2) {
          while (command.get() == null) {
            Thread.onSpinWait();
          }
          command.get().cancel(true);
        }
      }
    };
    CompletableFuture<OperationMetrics> reported = new CompletableFuture<>();
    StoreListener listener = metrics -> {
      if (metrics.operation().equals("transact")) {
        reported.complete(metrics);
      }
    };
    try (DynamoDbAsyncClient client = AsyncDynamo.client(faults, cancelOnThrottledResend)) {
      AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters = new AsyncEventSourcedRepository<>(
          DynamoDbAsyncEventStore.create(client, StoreConfig.defaults().withListener(listener)
              .withRetryPolicy(new RetryPolicy(6, Duration.ofMillis(50), Duration.ofMillis(50)))),
          Layout.TIP.counters(TestDynamo.store()).definition()) {};
      CounterRepository clean = Layout.TIP.counters(TestDynamo.store());
      CounterId id = CounterId.random();
      clean.create(new CounterCreated(id, "c"));
      faults.enqueue(UpdateItemRequest.class, Fault.SERVER_ERROR, Fault.THROTTLED);

      command.set(counters.transact(id, c -> c.increment("cancelled")));

      assertThrows(CancellationException.class, () -> command.get().get(10, TimeUnit.SECONDS));
      OperationMetrics metrics = reported.get(10, TimeUnit.SECONDS);
      assertInstanceOf(AppendOutcomeUnknownException.class, metrics.failure().orElseThrow(),
          "the first attempt's outcome was never settled");
      assertEquals(2, faults.injectedTotal());
      assertEquals(0, StoredStreams.read(clean.definition(), id.value()).count(new Incremented(1, "cancelled")));
    }
  }
}
