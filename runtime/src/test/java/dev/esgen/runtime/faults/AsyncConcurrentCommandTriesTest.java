package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/** Tries of one command id (create, then append at a version) in flight together from two stores under random faults: each stored once, every try answered with the stream. */
class AsyncConcurrentCommandTriesTest {

  @ParameterizedTest
  @EnumSource(Layout.class)
  void createsAndAppendsOfOneCommandIdInFlightTogether(Layout layout) throws Exception {
    FaultInjector random = FaultInjector.builder(21)
        .rate(Fault.LOST_RESPONSE, 0.1).rate(Fault.TIMEOUT_AFTER_APPLY, 0.05).rate(Fault.SERVER_ERROR, 0.05)
        .rate(Fault.THROTTLED, 0.05).rate(Fault.TRANSACTION_CONFLICT, 0.05)
        .build();
    try (DynamoDbAsyncClient one = AsyncDynamo.client(random); DynamoDbAsyncClient two = AsyncDynamo.client(random)) {
      RetryPolicy policy = new RetryPolicy(20, Duration.ofMillis(2), Duration.ofMillis(50), Duration.ofSeconds(15));
      List<AsyncEventSourcedRepository<Counter, CounterId, CounterEvent>> stores = List.of(
          new AsyncEventSourcedRepository<>(DynamoDbAsyncEventStore.create(one, StoreConfig.defaults().withRetryPolicy(policy)),
              layout.counters(TestDynamo.store()).definition()) {},
          new AsyncEventSourcedRepository<>(DynamoDbAsyncEventStore.create(two, StoreConfig.defaults().withRetryPolicy(policy)),
              layout.counters(TestDynamo.store()).definition()) {});
      CounterRepository clean = layout.counters(TestDynamo.store());
      List<String> problems = new ArrayList<>();
      for (int round = 0; round < 6; round++) {
        CounterId id = CounterId.random();
        List<CompletableFuture<Versioned<Counter>>> creates = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
          creates.add(stores.get(t % 2).create("open-" + round, List.of(new CounterCreated(id, "c"))));
        }
        for (CompletableFuture<Versioned<Counter>> c : creates) {
          try {
            Versioned<Counter> v = c.get(60, TimeUnit.SECONDS);
            if (v.version() < 1) problems.add("create version " + v.version());
          } catch (ExecutionException e) {
            problems.add("create round " + round + ": " + e.getCause());
          }
        }
        List<CompletableFuture<Versioned<Counter>>> appends = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
          appends.add(stores.get(t % 2).append(id, 1, "once-" + round, List.of(new Incremented(1, "once"))));
        }
        for (CompletableFuture<Versioned<Counter>> a : appends) {
          try {
            Versioned<Counter> v = a.get(60, TimeUnit.SECONDS);
            if (v.version() != 2) problems.add("append version " + v.version());
          } catch (ExecutionException e) {
            problems.add("append round " + round + ": " + e.getCause());
          }
        }
        StoredStreams.StoredStream stored = StoredStreams.read(clean.definition(), id.value());
        if (stored.count(new CounterCreated(id, "c")) != 1 || stored.count(new Incremented(1, "once")) != 1
            || !stored.defects().isEmpty()) {
          problems.add("round " + round + " stored " + stored.events() + " " + stored.defects());
        }
      }
      assertEquals(List.of(), problems);
    }
  }
}
