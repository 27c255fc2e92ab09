package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The calling thread is interrupted once DynamoDB has applied the append: the SDK aborts the call, and
 * esgen cannot read back on an interrupted thread. The caller is told the outcome is unknown (never that
 * nothing was written), and its thread stays interrupted.
 */
class InterruptedAppendTest {

  /** Interrupts the calling thread after DynamoDB answered the next write of {@code type}. */
  static final class InterruptAfterApply implements ExecutionInterceptor {
    final AtomicBoolean armed = new AtomicBoolean();
    final Class<?> type;

    InterruptAfterApply(Class<?> type) {
      this.type = type;
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
      if (type.isInstance(context.request()) && armed.compareAndSet(true, false)) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Layout.class, names = {"JOURNAL", "TIP"})
  void anAppendInterruptedInFlightIsOfUnknownOutcome(Layout layout) {
    InterruptAfterApply interrupter = new InterruptAfterApply(
        layout == Layout.JOURNAL ? TransactWriteItemsRequest.class : UpdateItemRequest.class);
    DynamoDbClient client = TestDynamo.clientWith(interrupter);
    DynamoDbEventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults()
        .withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(5))));
    CounterRepository counters = layout.counters(store);
    CounterRepository clean = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));

    interrupter.armed.set(true);
    boolean stillInterrupted;
    try {
      AppendOutcomeUnknownException unknown = assertThrows(AppendOutcomeUnknownException.class,
          () -> counters.transact(id, c -> c.increment("interrupted")));
      assertTrue(unknown.getMessage().contains("interrupted"), unknown.getMessage());
    } finally {
      stillInterrupted = Thread.interrupted();   // and cleared for the rest of the tests
    }

    assertTrue(stillInterrupted, "the caller's thread stays interrupted");
    assertEquals(1, StoredStreams.read(clean.definition(), id.value()).count(new Incremented(1, "interrupted")));
    assertEquals(2, counters.loadVersioned(id, ReadOptions.cachedWithin(Duration.ofMinutes(5))).version(),
        "the cache forgot version 1, which it held: a load accepting a cached state reads the stream");
  }
}
