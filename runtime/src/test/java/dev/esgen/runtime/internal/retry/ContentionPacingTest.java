package dev.esgen.runtime.internal.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.VersionConflictException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The pauses on a stream other processes contend for too, in write cycles; and that no other stream pauses. */
class ContentionPacingTest {

  private static final RetryPolicy POLICY = new RetryPolicy(20, Duration.ofMillis(10), Duration.ofMillis(500));
  private static final long MS = 1_000_000L;

  @Test
  void theBoundIsAFewWriteCyclesBetweenTheBaseAndTheMaximumDelay() {
    assertEquals(Duration.ofMillis(500), ContentionPacing.bound(POLICY, 0), "no cycle measured yet");
    assertEquals(Duration.ofMillis(5L * ContentionPacing.CYCLES), ContentionPacing.bound(POLICY, 5 * MS));
    assertEquals(Duration.ofMillis(10), ContentionPacing.bound(POLICY, MS / 10), "never below the base delay");
    assertEquals(Duration.ofMillis(500), ContentionPacing.bound(POLICY, 400 * MS), "never above the maximum delay");
    assertEquals(Duration.ofMillis(500), ContentionPacing.bound(POLICY, Long.MAX_VALUE), "no overflow");
  }

  @Test
  void aConflictPauseIsDecorrelatedJitterUnderTheBound() {
    SplittableRandom random = new SplittableRandom(13);
    long cycle = 5 * MS;
    long bound = ContentionPacing.bound(POLICY, cycle).toNanos();
    long longest = 0;
    Duration previous = Duration.ZERO;
    for (int i = 0; i < 2_000; i++) {
      Duration pause = ContentionPacing.conflictPause(POLICY, previous, cycle, random);
      assertTrue(pause.toNanos() >= 10 * MS && pause.toNanos() <= bound, pause.toString());
      longest = Math.max(longest, pause.toNanos());
      previous = pause;
    }
    assertTrue(longest > bound * 9 / 10, "a loser's pauses still reach the bound: " + longest);
    Duration unmeasured = ContentionPacing.conflictPause(POLICY, Duration.ofSeconds(5), 0, random);
    assertTrue(unmeasured.compareTo(Duration.ofMillis(500)) <= 0, "without a cycle the policy's cap holds");
  }

  @Test
  void aPolitePauseIsUniformUpToTheBound() {
    SplittableRandom random = new SplittableRandom(17);
    long cycle = 5 * MS;
    long bound = ContentionPacing.bound(POLICY, cycle).toNanos();
    long shortest = Long.MAX_VALUE;
    long longest = 0;
    for (int i = 0; i < 2_000; i++) {
      long pause = ContentionPacing.politePause(POLICY, cycle, random).toNanos();
      assertTrue(pause >= 0 && pause <= bound, Long.toString(pause));
      shortest = Math.min(shortest, pause);
      longest = Math.max(longest, pause);
    }
    assertTrue(shortest < bound / 10 && longest > bound * 9 / 10, shortest + " .. " + longest);
  }

  @Test
  void theWriteCycleFollowsTheAttemptsAQuarterAtATime() {
    ContendedStreams.Contention contention = new ContendedStreams().conflicted("counter", "a", false);
    assertEquals(0, contention.cycleNanos(), "nothing measured yet");
    contention.attemptTook(8 * MS);
    assertEquals(8 * MS, contention.cycleNanos(), "the first attempt is the estimate");
    contention.attemptTook(16 * MS);
    assertEquals(10 * MS, contention.cycleNanos());
    contention.attemptTook(1_000 * MS);
    assertEquals(10 * MS + (990 * MS) / 4, contention.cycleNanos(), "one slow attempt moves it only so far");
  }

  @Test
  void aWriteOnAStreamNoWriterOfTheStoreLostOnPausesNever() {
    List<Duration> pauses = new ArrayList<>();
    ContendedStreams contended = new ContendedStreams();
    // What transact does on a stream with one writer: ask for the turn, write, give the turn back.
    for (int command = 0; command < 3; command++) {
      RetryBudget budget = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
      budget.awaitTurn("counter", "a", true);
      budget.wrote("counter", "a");
      assertFalse(budget.holdsTurn());
      budget.releaseTurn();
    }
    assertEquals(List.of(), pauses);
  }

  @Test
  void aNewCommandAfterAWriteInTheStreamsTurnLostPausesOnceWithinTheBound() {
    List<Duration> pauses = new ArrayList<>();
    ContendedStreams contended = new ContendedStreams();
    VersionConflictException lost = new VersionConflictException("counter", "a", 1, OptionalLong.of(2), 1);
    RetryBudget first = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    first.awaitTurn("counter", "a", true);
    assertTrue(first.retryConflict("counter", "a", lost));
    first.wrote("counter", "a");
    first.releaseTurn();
    assertEquals(1, pauses.size(), "the first loser's pause after its conflict");
    assertTrue(pauses.get(0).compareTo(POLICY.baseDelay()) >= 0 && pauses.get(0).compareTo(POLICY.maxDelay()) <= 0);

    RetryBudget inTurn = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    inTurn.awaitTurn("counter", "a", true);
    assertTrue(inTurn.holdsTurn());
    assertEquals(1, pauses.size(), "a loss outside the turns (the store's own writers at first) makes no one pause");
    assertTrue(inTurn.retryConflict("counter", "a", lost));
    inTurn.wrote("counter", "a");
    inTurn.releaseTurn();
    assertEquals(2, pauses.size(), "the pause of the writer that lost in its turn, to another process");

    RetryBudget next = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    next.awaitTurn("counter", "a", true);
    assertTrue(next.holdsTurn());
    assertEquals(3, pauses.size(), "one polite pause before the new command");
    assertTrue(pauses.get(2).compareTo(POLICY.maxDelay()) <= 0, pauses.get(2).toString());
    next.releaseTurn();

    RetryBudget cached = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    cached.awaitTurn("counter", "a", false);
    assertTrue(cached.holdsTurn(), "a writer deciding on remembered state takes the turn");
    assertEquals(3, pauses.size(), "but does not pause");
    cached.releaseTurn();

    RetryBudget holder = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    holder.awaitTurn("counter", "a", true);
    assertEquals(4, pauses.size());
    RetryBudget behind = new RetryBudget(new RetryPolicy(20, Duration.ofMillis(1), Duration.ofMillis(20)),
        RetryBudget.Observer.NONE, contended, pauses::add);
    behind.awaitTurn("counter", "a", true);
    assertEquals(4, pauses.size(), "a writer that finds one of its own store holding the turn does not pause");
    holder.releaseTurn();
    RetryBudget afterQueue = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    afterQueue.awaitTurn("counter", "a", true);
    assertTrue(afterQueue.holdsTurn());
    assertEquals(4, pauses.size(), "nor, for a while, does any writer of a store whose writers waited in line");
    afterQueue.releaseTurn();

    RetryBudget elsewhere = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    elsewhere.awaitTurn("counter", "b", true);
    assertEquals(4, pauses.size(), "another stream of the same store does not pause");
  }
}
