package dev.esgen.runtime.async;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.DynamoDbAsyncEventStore;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * A listener that throws an {@link Error} when an operation is reported: the operation's future must
 * still complete. Before, the error escaped the callback that completes the caller's future, which then
 * never completed (where the synchronous repository's call ends by throwing it).
 */
class AsyncListenerErrorTest {

  @Test
  void aListenerThrowingAnErrorDoesNotLeaveTheFutureForeverIncomplete() throws Exception {
    StoreListener broken = metrics -> {
      throw new AssertionError("a listener that breaks");
    };
    try (DynamoDbAsyncClient client = AsyncDynamo.client()) {
      AsyncCounterRepository counters = new AsyncCounterRepository(
          DynamoDbAsyncEventStore.create(client, StoreConfig.defaults().withListener(broken)));
      CounterId id = new CounterId("listener-" + UUID.randomUUID());

      CompletableFuture<Versioned<Counter>> created = counters.create(new CounterCreated(id, "c"));

      try {
        created.get(10, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException failed) {
        // failing with the listener's error is an answer too
      } catch (java.util.concurrent.TimeoutException hung) {
        throw new AssertionError("the future of a create that was stored never completed", hung);
      }
      assertTrue(created.isDone());
      assertEquals(1, new dev.esgen.runtime.counter.IndexedCounterRepository(
          dev.esgen.runtime.testing.TestDynamo.store(), dev.esgen.runtime.aggregate.LayoutKind.JOURNAL, 0)
          .loadVersioned(id).version(), "the create was stored");
    }
  }
}
