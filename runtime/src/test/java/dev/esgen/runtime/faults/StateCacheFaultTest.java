package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.testing.CounterLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** The state cache after an append whose outcome stayed unknown: it must not decide on what it remembers. */
class StateCacheFaultTest {

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void anAppendOfUnknownOutcomeMakesTheCacheForgetTheStream(CounterLayout layout) {
    FaultInjector faults = FaultInjector.builder(13).build();
    List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
    DynamoDbEventStore store = DynamoDbEventStore.create(FaultyDynamo.clientWithoutSdkRetries(faults),
        StoreConfig.defaults()
            .withListener(heard::add)
            .withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(5)))
            .withRetryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1))));
    CounterRepository counters = layout == CounterLayout.JOURNAL
        ? new CounterRepository(store, SnapshotPolicy.every(1))
        : new CounterRepository(store, new TipPolicy(32 * 1024, 0, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "c"));
    counters.transact(id, counter -> counter.increment("known"));   // cached at version 2

    // Applied, its response lost, and nothing can be read back before the budget is spent.
    faults.always(layout == CounterLayout.JOURNAL ? TransactWriteItemsRequest.class : UpdateItemRequest.class,
        Fault.LOST_RESPONSE);
    faults.always(GetItemRequest.class, Fault.SERVER_ERROR);
    faults.always(QueryRequest.class, Fault.SERVER_ERROR);
    assertThrows(AppendOutcomeUnknownException.class,
        () -> counters.transact(id, counter -> counter.increment("unknown")));
    faults.clear();

    counters.transact(id, counter -> counter.increment("after"));
    OperationMetrics after = heard.get(heard.size() - 1);
    assertEquals(0, after.conflicts(), "decided on what is stored, not on the forgotten version 2");
    assertEquals(2, after.requests(), "a load, then the append");
    assertEquals(3, counters.load(id, ReadOptions.strong()).value(), "the unknown append was applied, once");
  }
}
