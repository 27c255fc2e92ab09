package dev.esgen.runtime.async;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Four asynchronous stores with the state cache writing one stream, as four processes would, each store's
 * commands one after the other. The store that wins decides on the state it remembers and appends in one
 * request, so it keeps winning; the gaps a store leaves after losing to another process, and the patience
 * of a command that lost a quarter of its attempts, keep every command within the default policy, as for
 * the synchronous repository (see {@code CrossProcessContentionTest}).
 */
class AsyncCrossProcessContentionTest {

  private static final int STORES = 4;
  private static final int COMMANDS_PER_STORE = 50;

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  @Test
  void fourAsyncStoresWithTheStateCacheAndTheDefaultPolicyGiveUpNoCommand() {
    StoreConfig config = StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1)));
    List<AsyncCounterRepository> processes = new ArrayList<>();
    for (int s = 0; s < STORES; s++) {
      processes.add(new AsyncCounterRepository(async.store(config)));
    }
    CounterId id = new CounterId("async-hot-" + UUID.randomUUID());
    AsyncStoreFixture.await(processes.get(0).create(new CounterCreated(id, "hot")));

    List<CompletableFuture<Void>> lanes = new ArrayList<>();
    for (int s = 0; s < STORES; s++) {
      lanes.add(lane(processes.get(s), id, s, 0));
    }
    // A command that gave up fails its lane with its VersionConflictException, and so this join.
    CompletableFuture.allOf(lanes.toArray(CompletableFuture[]::new)).orTimeout(120, TimeUnit.SECONDS).join();

    IndexedCounterRepository stored = new IndexedCounterRepository(TestDynamo.store(), LayoutKind.JOURNAL, 0);
    List<String> tags;
    try (var events = stored.events(id)) {
      tags = Contention.sortedTags(events);
    }
    assertEquals(Contention.tags(STORES, COMMANDS_PER_STORE).stream().sorted().toList(), tags,
        "every command once, none lost, none doubled");
    assertEquals(STORES * COMMANDS_PER_STORE + 1, stored.findVersioned(id).orElseThrow().version());
  }

  /** Store {@code store}'s commands from the {@code i}-th on, each sent when the one before completed. */
  private static CompletableFuture<Void> lane(AsyncCounterRepository counters, CounterId id, int store, int i) {
    if (i == COMMANDS_PER_STORE) {
      return CompletableFuture.completedFuture(null);
    }
    return counters.transact(id, counter -> counter.increment(store + "-" + i))
        .thenCompose(written -> lane(counters, id, store, i + 1));
  }
}
