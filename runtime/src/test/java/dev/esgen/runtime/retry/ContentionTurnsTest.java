package dev.esgen.runtime.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.retry.ContendedStreams;
import dev.esgen.runtime.internal.retry.RetryBudget;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Writers of one store on one stream take turns once they have fought over it: in-process contention
 * costs about one attempt per command, and every command is still stored exactly once.
 */
class ContentionTurnsTest {

  private static final int THREADS = 4;
  private static final int COMMANDS_PER_THREAD = 25;
  /** Waits in line up to its longest pause: long enough that a slow machine does not end a wait early. */
  private static final RetryPolicy POLICY =
      new RetryPolicy(20, Duration.ofMillis(10), Duration.ofSeconds(30), Duration.ofSeconds(60));

  @Test
  void fourWritersOfOneStoreLoseFewAttemptsAndStoreEveryCommandOnce() throws Exception {
    for (StoreConfig config : new StoreConfig[] {StoreConfig.defaults(),
        StoreConfig.defaults().withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(1)))}) {
      CounterRepository counters = new CounterRepository(TestDynamo.store(config));
      CounterId id = CounterId.random();
      counters.create(new CounterCreated(id, "hot"));
      AtomicInteger decisions = new AtomicInteger();
      Contention.run(THREADS, COMMANDS_PER_THREAD, (thread, i) -> counters.transact(id, counter -> {
        decisions.incrementAndGet();
        return counter.increment(thread + "-" + i);
      }));
      int total = THREADS * COMMANDS_PER_THREAD;
      Versioned<dev.esgen.runtime.counter.Counter> end = counters.findVersioned(id).orElseThrow();
      assertEquals(total, end.state().value(), "every command once");
      assertEquals(total + 1, end.version());
      // Backing off from each other, four writers lost about 0.85 attempts per command; an immediate loop
      // about 2. In turns only the writers that met before the stream counted as contended lose.
      int conflicts = decisions.get() - total;
      assertTrue(conflicts < total / 4, "conflicts: " + conflicts + " in " + total + " commands");
    }
  }

  @Test
  void aContendedStreamsTurnGoesToOneOperationAtATimeInOrder() throws Exception {
    ContendedStreams contended = new ContendedStreams();
    RetryBudget first = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended);
    first.awaitTurn("counter", "a", true);
    assertFalse(first.holdsTurn(), "a stream no one fought over has no turns");

    VersionConflictException lost = new VersionConflictException("counter", "a", 1, java.util.OptionalLong.of(2), 1);
    assertTrue(first.retryConflict("counter", "a", lost));
    assertTrue(first.holdsTurn(), "the loser holds the contended stream's turn");
    first.awaitTurn("counter", "a", true);
    assertTrue(first.holdsTurn(), "asking again while holding it neither blocks nor changes it");

    RetryBudget second = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended);
    CountDownLatch waiting = new CountDownLatch(1);
    CompletableFuture<Boolean> secondTurn = CompletableFuture.supplyAsync(() -> {
      waiting.countDown();
      second.awaitTurn("counter", "a", true);
      return second.holdsTurn();
    });
    assertTrue(waiting.await(10, TimeUnit.SECONDS));
    Thread.sleep(100);
    assertFalse(secondTurn.isDone(), "the second writer waits while the first holds the turn");
    first.releaseTurn();
    assertFalse(first.holdsTurn());
    assertTrue(secondTurn.get(10, TimeUnit.SECONDS), "and gets it when the first gives it back");
    second.releaseTurn();

    RetryBudget other = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended);
    other.awaitTurn("counter", "b", true);
    assertFalse(other.holdsTurn(), "another stream is not contended");
  }

  @Test
  void aWriterWaitsInLineNoLongerThanTheLongestPauseThenGoesOnWithoutItsTurn() throws Exception {
    ContendedStreams contended = new ContendedStreams();
    RetryBudget holder = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended);
    VersionConflictException lost = new VersionConflictException("counter", "a", 1, java.util.OptionalLong.of(2), 1);
    assertTrue(holder.retryConflict("counter", "a", lost));
    assertTrue(holder.holdsTurn());
    // e.g. the holder's decision waits for this writer's command: neither may wait for the other for ever
    RetryBudget next = new RetryBudget(new RetryPolicy(20, Duration.ofMillis(1), Duration.ofMillis(50)),
        RetryBudget.Observer.NONE, contended);
    CompletableFuture<Boolean> nextTurn = CompletableFuture.supplyAsync(() -> {
      next.awaitTurn("counter", "a", true);
      return next.holdsTurn();
    });
    assertFalse(nextTurn.get(10, TimeUnit.SECONDS), "went on without the turn the holder kept");
    holder.releaseTurn();
  }

  @Test
  void aBudgetGivesUpAfterItsLastAttemptWithoutTakingATurn() {
    RetryBudget budget = new RetryBudget(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2)),
        RetryBudget.Observer.NONE, new ContendedStreams());
    VersionConflictException lost = new VersionConflictException("counter", "a", 1, java.util.OptionalLong.of(2), 1);
    assertTrue(budget.retryConflict("counter", "a", lost));
    budget.releaseTurn();
    assertFalse(budget.retryConflict("counter", "a", lost), "the second of two attempts was the last");
    assertFalse(budget.holdsTurn());
    assertEquals(2, budget.failedAttempts());
  }
}
