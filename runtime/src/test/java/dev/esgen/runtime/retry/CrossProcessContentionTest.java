package dev.esgen.runtime.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Four stores writing one stream, as four processes would: they share no turns, and only the version
 * condition, the pauses and the politeness of a store that lost lately order them. Every command is still
 * stored exactly once, and with the state cache none gives up within the default policy.
 */
class CrossProcessContentionTest {

  private static final int STORES = 4;
  private static final int COMMANDS_PER_STORE = 25;

  @Test
  void fourStoresOnOneStreamStoreEveryCommandExactlyOnce() throws Exception {
    for (StoreConfig config : new StoreConfig[] {StoreConfig.defaults().withRetryPolicy(Contention.PATIENT),
        StoreConfig.defaults().withRetryPolicy(Contention.PATIENT)
            .withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1)))}) {
      runAndCheck(config, COMMANDS_PER_STORE);
    }
  }

  /**
   * With the state cache the writer that won appends on the state it remembers in one request and keeps
   * winning; the writers it beat used to run out of the default policy's attempts now and then (about one
   * command in 400 in every other benchmark run). Gaps left by a store that lost to another process, and
   * patience once a quarter of the attempts are spent, keep every command within the default budget: a
   * command that gave up fails this test with its {@code VersionConflictException}.
   */
  @Test
  void fourStoresWithTheStateCacheAndTheDefaultPolicyGiveUpNoCommand() throws Exception {
    runAndCheck(StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1))),
        2 * COMMANDS_PER_STORE);
  }

  private static void runAndCheck(StoreConfig config, int commandsPerStore) throws Exception {
    List<CounterRepository> processes = new ArrayList<>();
    for (int s = 0; s < STORES; s++) {
      processes.add(new CounterRepository(TestDynamo.store(config)));
    }
    CounterId id = CounterId.random();
    processes.get(0).create(new CounterCreated(id, "hot"));

    Contention.run(STORES, commandsPerStore,
        (store, i) -> processes.get(store).transact(id, counter -> counter.increment(store + "-" + i)));

    List<String> stored;
    try (Stream<RecordedEvent<CounterEvent>> events = processes.get(1).events(id)) {
      stored = Contention.sortedTags(events);
    }
    assertEquals(Contention.tags(STORES, commandsPerStore).stream().sorted().toList(), stored,
        "every command once, none lost, none doubled");
    assertEquals(STORES * commandsPerStore + 1, processes.get(2).findVersioned(id).orElseThrow().version());
  }
}
