package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.faults.StoredStreams.StoredStream;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * Many asynchronous commands (45 per case, 8 in flight) on a few hot counters, faults injected at random
 * into the async client: every command acknowledged is stored once, every "nothing written" failure stored zero times,
 * every unknown outcome settled by repeating its command id (one command of each case is made to end
 * unknown, which the random faults seldom do), and no future fails with anything else;
 * also with real SDK attempt time-outs of a few milliseconds, whose writes DynamoDB may apply after
 * esgen gave up on them.
 */
class AsyncRandomFaultsTest {

  static List<Arguments> layoutsAndCache() {
    return Layout.each(false, true);
  }

  @ParameterizedTest
  @MethodSource("layoutsAndCache")
  void everyCommandIsStoredAsItsFutureSaysWithRealAttemptTimeouts(Layout layout, boolean cache) throws Exception {
    run(layout, cache, true);
  }

  @ParameterizedTest
  @MethodSource("layoutsAndCache")
  void everyCommandIsStoredAsItsFutureSays(Layout layout, boolean cache) throws Exception {
    run(layout, cache, false);
  }

  private void run(Layout layout, boolean cache, boolean timeouts) throws Exception {
    FaultInjector faults0 = FaultInjector.builder(layout.ordinal() * 31L + (cache ? 7 : 0))
        .rate(Fault.LOST_RESPONSE, 0.06)
        .rate(Fault.TIMEOUT_AFTER_APPLY, 0.04)
        .rate(Fault.TIMEOUT_BEFORE_SEND, 0.04)
        .rate(Fault.SERVER_ERROR, 0.04)
        .rate(Fault.THROTTLED, 0.04)
        .rate(Fault.TRANSACTION_CONFLICT, 0.04)
        .rate(Fault.THROTTLED_CANCELLATION, 0.02)
        .streaks(0.02, 12)
        .build();
    FaultInjector faults = timeouts ? FaultInjector.builder(1).build() : faults0;
    StoreConfig config = StoreConfig.defaults()
        .withRetryPolicy(new RetryPolicy(8, Duration.ofMillis(2), Duration.ofMillis(20)));
    if (cache) {
      config = config.withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(5)));
    }
    try (DynamoDbAsyncClient client =
        timeouts ? AsyncDynamo.timingOutAfter(Duration.ofMillis(12), faults) : AsyncDynamo.client(faults)) {
      AsyncEventStore store = DynamoDbAsyncEventStore.create(client, config);
      AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> counters =
          new AsyncEventSourcedRepository<>(store, layout.counters(TestDynamo.store()).definition()) {};
      CounterRepository clean = layout.counters(TestDynamo.store());
      List<CounterId> ids = List.of(CounterId.random(), CounterId.random(), CounterId.random());
      for (CounterId id : ids) {
        clean.create(new CounterCreated(id, "c"));
      }

      int commands = 45;
      Map<String, CompletableFuture<Versioned<Counter>>> sent = new LinkedHashMap<>();
      Map<String, CounterId> target = new LinkedHashMap<>();
      List<CompletableFuture<?>> window = new ArrayList<>();
      for (int k = 0; k < commands; k++) {
        String command = "cmd-" + k;
        CounterId id = ids.get(k % ids.size());
        target.put(command, id);
        CompletableFuture<Versioned<Counter>> future = k % 4 == 3
            ? counters.transact(id, c -> c.increment(command))
            : counters.transact(id, command, c -> c.increment(command));
        sent.put(command, future);
        window.add(future);
        if (window.size() == 8) {
          CompletableFuture.allOf(window.toArray(CompletableFuture[]::new))
              .handle((v, f) -> null).get(120, TimeUnit.SECONDS);
          window.clear();
        }
      }
      CompletableFuture.allOf(window.toArray(CompletableFuture[]::new)).handle((v, f) -> null).get(120, TimeUnit.SECONDS);
      // The random faults above seldom spend a command's budget, so one more command, through a client whose
      // every transaction meets a server error (nothing applied, the writer cannot know), ends unknown in
      // every case and is settled below by repeating its command id on the store under test.
      String doubtful = "cmd-" + commands;
      FaultInjector serverErrors = FaultInjector.builder(0).build()
          .always(TransactWriteItemsRequest.class, Fault.SERVER_ERROR);
      try (DynamoDbAsyncClient failing = AsyncDynamo.client(serverErrors)) {
        AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> failingCounters =
            new AsyncEventSourcedRepository<>(DynamoDbAsyncEventStore.create(failing, config),
                counters.definition()) {};
        CompletableFuture<Versioned<Counter>> future =
            failingCounters.transact(ids.get(0), doubtful, c -> c.increment(doubtful));
        future.handle((v, f) -> null).get(120, TimeUnit.SECONDS);
        sent.put(doubtful, future);
        target.put(doubtful, ids.get(0));
      }
      faults.enabled(false);
      if (timeouts) {
        Thread.sleep(1000);   // writes whose attempts timed out land (DynamoDB Local answers within milliseconds)
      }

      List<String> problems = new ArrayList<>();
      Map<String, Integer> outcomes = new TreeMap<>();
      Map<String, Throwable> unknown = new LinkedHashMap<>();
      for (Map.Entry<String, CompletableFuture<Versioned<Counter>>> entry : sent.entrySet()) {
        String command = entry.getKey();
        CounterId id = target.get(command);
        long stored = StoredStreams.read(clean.definition(), id.value()).count(new Incremented(1, command));
        Throwable failure = null;
        try {
          entry.getValue().get();
        } catch (ExecutionException e) {
          failure = e.getCause();
        }
        outcomes.merge(failure == null ? "ok" : failure.getClass().getSimpleName(), 1, Integer::sum);
        if (failure == null) {
          if (stored != 1) {
            problems.add(command + " acknowledged, stored " + stored + " times");
          }
        } else if (failure instanceof AppendOutcomeUnknownException) {
          unknown.put(command, failure);
          if (stored > 1) {
            problems.add(command + " unknown, stored " + stored + " times");
          }
        } else if (failure instanceof StoreUnavailableException || failure instanceof VersionConflictException) {
          if (stored != 0) {
            problems.add(command + " failed with " + failure + " but is stored " + stored + " times");
          }
        } else {
          problems.add(command + " failed with an unexpected " + failure);
        }
      }
      // Settle every unknown outcome of a command with an id by repeating it.
      for (String command : unknown.keySet()) {
        int k = Integer.parseInt(command.substring(4));
        if (k % 4 == 3) {
          continue;
        }
        CounterId id = target.get(command);
        counters.transact(id, command, c -> c.increment(command)).get(60, TimeUnit.SECONDS);
        long stored = StoredStreams.read(clean.definition(), id.value()).count(new Incremented(1, command));
        if (stored != 1) {
          problems.add(command + " repeated after an unknown outcome, stored " + stored + " times");
        }
      }
      for (CounterId id : ids) {
        StoredStream stream = StoredStreams.read(clean.definition(), id.value());
        if (!stream.defects().isEmpty()) {
          problems.add(id.value() + ": " + stream.defects());
        }
      }

      assertTrue(timeouts || faults.injectedTotal() > 0);
      assertTrue(unknown.containsKey(doubtful), doubtful + " ended " + outcomes);
      assertEquals(List.of(), problems, "injected " + faults.injected() + ", unknown " + unknown.size());
    }
  }
}
