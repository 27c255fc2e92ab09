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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pauses on a stream other processes contend for too, in write cycles; and that no other stream pauses. */
class ContentionPacingTest {

  private static final Executor DIRECT = Runnable::run;

  private static final RetryPolicy POLICY = new RetryPolicy(20, Duration.ofMillis(10), Duration.ofMillis(500));
  private static final long MS = 1_000_000L;
  private static final VersionConflictException LOST =
      new VersionConflictException("counter", "a", 1, OptionalLong.of(2), 1);

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

  @Test
  void theMemoryOfLosingToAnotherProcessIsTenLongestWaitsAndAtLeastASecond() {
    assertEquals(Duration.ofSeconds(5), ContendedStreams.othersFor(POLICY));
    assertEquals(ContendedStreams.CONTENDED_FOR,
        ContendedStreams.othersFor(new RetryPolicy(20, Duration.ofMillis(1), Duration.ofMillis(20))));
  }

  @Test
  void aPatientPauseIsUniformFromHalfTheMaximumDelayToAllOfIt() {
    SplittableRandom random = new SplittableRandom(19);
    long max = POLICY.maxDelay().toNanos();
    long shortest = Long.MAX_VALUE;
    long longest = 0;
    for (int i = 0; i < 2_000; i++) {
      long pause = ContentionPacing.patientPause(POLICY, random).toNanos();
      assertTrue(pause >= max / 2 && pause <= max, Long.toString(pause));
      shortest = Math.min(shortest, pause);
      longest = Math.max(longest, pause);
    }
    assertTrue(shortest < max * 11 / 20 && longest > max * 19 / 20, shortest + " .. " + longest);
    // The writer that won does not know of a loser; retrying sooner only spends the loser's attempts.
    assertFalse(ContentionPacing.patient(POLICY, 4));
    assertTrue(ContentionPacing.patient(POLICY, 5), "a quarter of 20 attempts");
    assertTrue(ContentionPacing.patient(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(20)), 1));
  }

  @Test
  void aWriterOnRememberedStateThatNeverLostToAnotherProcessPausesNever() {
    List<Duration> pauses = new ArrayList<>();
    ContendedStreams contended = new ContendedStreams(POLICY);
    for (int command = 0; command < 3 * ContentionPacing.GAP_EVERY; command++) {
      RetryBudget budget = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
      budget.awaitTurn("counter", "a", false);
      budget.wrote("counter", "a");
      budget.releaseTurn();
    }
    assertEquals(List.of(), pauses, "a single writer on its cached state");

    // A loss to another writer of the same store (the cache remembers a newer version of its own) is no
    // reason to leave gaps either.
    RetryBudget lostToOwn = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    lostToOwn.awaitTurn("counter", "a", false);
    assertTrue(lostToOwn.retryConflict("counter", "a", LOST, false));
    lostToOwn.releaseTurn();
    pauses.clear();
    for (int command = 0; command < 3 * ContentionPacing.GAP_EVERY; command++) {
      RetryBudget budget = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
      budget.awaitTurn("counter", "a", false);
      budget.releaseTurn();
    }
    assertEquals(List.of(), pauses);
  }

  @Test
  void aWriterOnRememberedStateThatLostToAnotherProcessLeavesAGapBeforeEveryFewCommands() {
    List<Duration> pauses = new ArrayList<>();
    ContendedStreams contended = new ContendedStreams(POLICY);
    RetryBudget loser = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    loser.awaitTurn("counter", "a", false);
    assertTrue(loser.retryConflict("counter", "a", LOST, true), "no newer version of its own remembered");
    loser.wrote("counter", "a");
    loser.releaseTurn();
    assertEquals(1, pauses.size(), "the loser's own pause after its conflict");
    pauses.clear();

    List<Integer> gapsBefore = new ArrayList<>();
    int commands = 3 * ContentionPacing.GAP_EVERY;
    for (int command = 1; command <= commands; command++) {
      RetryBudget budget = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
      int before = pauses.size();
      budget.awaitTurn("counter", "a", false);
      if (pauses.size() > before) {
        gapsBefore.add(command);
      }
      budget.wrote("counter", "a");
      budget.releaseTurn();
    }
    List<Integer> expected = gapCommands(commands);
    assertEquals(expected, gapsBefore, "a gap before every " + ContentionPacing.GAP_EVERY + "th command");
    for (Duration pause : pauses) {
      assertTrue(pause.compareTo(POLICY.maxDelay()) <= 0, pause.toString());
    }

    RetryBudget other = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    other.awaitTurn("counter", "b", false);
    other.releaseTurn();
    assertEquals(expected.size(), pauses.size(), "another stream of the same store leaves no gaps");
  }

  @Test
  void aWriterOnRememberedStateLeavesNoGapWhileOneOfItsOwnStoreHoldsTheTurn() {
    List<Duration> pauses = new ArrayList<>();
    ContendedStreams contended = new ContendedStreams(POLICY);
    RetryBudget holder = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pauses::add);
    holder.awaitTurn("counter", "a", false);
    assertTrue(holder.retryConflict("counter", "a", LOST, true));
    assertTrue(holder.holdsTurn());
    pauses.clear();
    RetryPolicy brief = new RetryPolicy(20, Duration.ofMillis(1), Duration.ofMillis(20));
    for (int command = 0; command < 2 * ContentionPacing.GAP_EVERY; command++) {
      RetryBudget behind = new RetryBudget(brief, RetryBudget.Observer.NONE, contended, pauses::add);
      behind.awaitTurn("counter", "a", false);
      assertFalse(behind.holdsTurn(), "gave up waiting in line");
    }
    holder.releaseTurn();
    assertEquals(List.of(), pauses, "writers of one store in line hand the stream on by turns");
  }

  @Test
  void aWriterOnRememberedStateWaitsPatientlyOnceAQuarterOfItsAttemptsAreSpent() {
    List<Duration> pauses = new ArrayList<>();
    RetryBudget budget = new RetryBudget(POLICY, RetryBudget.Observer.NONE, new ContendedStreams(POLICY), pauses::add);
    budget.awaitTurn("counter", "a", false);
    int attempts = 0;
    while (budget.retryConflict("counter", "a", LOST, true)) {
      attempts++;
    }
    assertEquals(POLICY.maxAttempts() - 1, attempts);
    assertEquals(POLICY.maxAttempts() - 1, pauses.size());
    int patientFrom = POLICY.maxAttempts() / 4;
    for (int i = 0; i < pauses.size(); i++) {
      Duration pause = pauses.get(i);
      if (i + 1 >= patientFrom) {
        assertTrue(pause.compareTo(POLICY.maxDelay().dividedBy(2)) >= 0 && pause.compareTo(POLICY.maxDelay()) <= 0,
            "pause after failed attempt " + (i + 1) + ": " + pause);
      } else {
        assertTrue(pause.compareTo(POLICY.baseDelay()) >= 0 && pause.compareTo(POLICY.maxDelay()) <= 0, pause.toString());
      }
    }
    budget.releaseTurn();
  }

  @Test
  void withoutBlockingAWriterOnRememberedStateGetsTheSameGapsAndPatienceAsPausesToWait() {
    List<Duration> slept = new ArrayList<>();
    List<Duration> delayed = new ArrayList<>();
    RetryBudget.Delayer counted = (pause, executor) -> {
      delayed.add(pause);
      return CompletableFuture.completedFuture(null);
    };
    ContendedStreams contended = new ContendedStreams(POLICY);
    RetryBudget loser = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, slept::add, counted);
    assertTrue(loser.awaitTurnAsync("counter", "a", false, DIRECT).isDone());
    assertEquals(List.of(), delayed, "never lost: no gap");
    assertTrue(loser.retryConflictAsync("counter", "a", LOST, true, DIRECT).join());
    assertTrue(loser.holdsTurn(), "after a conflict the writer holds the stream's turn, as a blocking one does");
    loser.releaseTurn();

    List<Integer> gapsBefore = new ArrayList<>();
    int commands = 3 * ContentionPacing.GAP_EVERY;
    for (int command = 1; command <= commands; command++) {
      RetryBudget budget = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, slept::add, counted);
      int before = delayed.size();
      assertTrue(budget.awaitTurnAsync("counter", "a", false, DIRECT).isDone(), "no one in line: no wait");
      if (delayed.size() > before) {
        assertTrue(delayed.get(before).compareTo(POLICY.maxDelay()) <= 0, delayed.get(before).toString());
        gapsBefore.add(command);
      }
      budget.releaseTurn();
    }
    List<Integer> expected = gapCommands(commands);
    assertEquals(expected, gapsBefore, "a gap before every " + ContentionPacing.GAP_EVERY + "th command");

    delayed.clear();
    RetryBudget patient = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, slept::add, counted);
    patient.awaitTurnAsync("counter", "b", false, DIRECT).join();
    while (patient.retryConflictAsync("counter", "b", LOST, true, DIRECT).join()) {
      assertTrue(patient.holdsTurn());
    }
    patient.releaseTurn();
    assertEquals(POLICY.maxAttempts(), patient.failedAttempts());
    assertEquals(POLICY.maxAttempts() - 1, delayed.size(), "the last loss spends the budget");
    for (int i = POLICY.maxAttempts() / 4 - 1; i < delayed.size(); i++) {
      assertTrue(delayed.get(i).compareTo(POLICY.maxDelay().dividedBy(2)) >= 0,
          "patient after failed attempt " + (i + 1) + ": " + delayed.get(i));
    }
    assertEquals(List.of(), slept, "nothing waited on the calling thread");
  }

  @Test
  void anAsynchronousWriterWaitsInLineBehindABlockingOneWithoutAThread() throws Exception {
    List<Duration> slept = new ArrayList<>();
    ContendedStreams contended = new ContendedStreams(POLICY);
    RetryBudget first = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, slept::add);
    assertTrue(first.retryConflict("counter", "c", LOST, false));
    assertTrue(first.holdsTurn());

    RetryBudget second = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, slept::add);
    List<Duration> waited = new ArrayList<>();
    RetryBudget.Observer heard = (kind, failedAttempts, errorCode, retryAfter) -> retryAfter.ifPresent(waited::add);
    RetryBudget third = new RetryBudget(POLICY, heard, contended, slept::add, (pause, executor) -> {
      throw new AssertionError("a writer behind others in line does not pause: " + pause);
    });
    CompletableFuture<Void> secondInLine = second.awaitTurnAsync("counter", "c", true, DIRECT);
    CompletableFuture<Boolean> thirdInLine = third.retryConflictAsync("counter", "c", LOST, false, DIRECT);
    assertFalse(secondInLine.isDone(), "the turn is held");
    assertFalse(thirdInLine.isDone(), "the turn is held");

    first.releaseTurn();
    secondInLine.get(5, TimeUnit.SECONDS);
    assertTrue(second.holdsTurn());
    assertFalse(thirdInLine.isDone(), "one writer at a time, in the order they came");
    second.releaseTurn();
    assertTrue(thirdInLine.get(5, TimeUnit.SECONDS), "decides again at once, on what the writers before left");
    assertTrue(third.holdsTurn());
    assertEquals(1, waited.size(), "its wait in line is reported as the wait before the next attempt");
    third.releaseTurn();
    assertEquals(1, slept.size(), "only the blocking writer paused after its conflict, holding the turn");
  }

  @Test
  void anAsynchronousWriterLeavesTheLineAtItsDeadlineAndTheTurnSkipsIt() throws Exception {
    ContendedStreams contended = new ContendedStreams(POLICY);
    RetryBudget holder = new RetryBudget(POLICY, RetryBudget.Observer.NONE, contended, pause -> {});
    assertTrue(holder.retryConflict("counter", "d", LOST, false));
    assertTrue(holder.holdsTurn());

    RetryPolicy brief = new RetryPolicy(20, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(50));
    RetryBudget late = new RetryBudget(brief, RetryBudget.Observer.NONE, contended);
    late.awaitTurnAsync("counter", "d", true, DIRECT).get(10, TimeUnit.SECONDS);
    assertFalse(late.holdsTurn(), "went on without the turn the holder kept");

    holder.releaseTurn();
    assertTrue(ContendedStreams.free(contended.contention("counter", "d")), "no one was handed the turn");
  }

  /**
   * Which of {@code commands} new commands, counted from 1, a store that lost to another process leaves a
   * gap before.
   */
  private static List<Integer> gapCommands(int commands) {
    List<Integer> gaps = new ArrayList<>();
    for (int command = ContentionPacing.GAP_EVERY; command <= commands; command += ContentionPacing.GAP_EVERY) {
      gaps.add(command);
    }
    return gaps;
  }
}
