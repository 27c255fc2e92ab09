package dev.esgen.runtime.internal.retry;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.VersionConflictException;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Budgets of operations started inside another's decide function, on the thread it runs on. */
class RetryBudgetsTest {

  // Waiting in line lasts up to maxDelay: a wrong wait ends by itself.
  private final RetryPolicy policy = new RetryPolicy(5, Duration.ofMillis(1), Duration.ofSeconds(6),
      Duration.ofSeconds(20));
  private final RetryBudgets budgets = new RetryBudgets(policy);

  @Test
  void anOperationInsideTheDecisionOfOneHoldingTheStreamsTurnWaitsInNoLine() {
    RetryBudget outer = budgets.start(RetryBudget.Observer.NONE);
    assertTrue(outer.retryConflict("counter", "a", new VersionConflictException("counter", "a", 1, OptionalLong.of(2), 1)));
    assertTrue(outer.holdsTurn(), "a conflict on a stream of this store takes its turn");
    RetryBudget before = budgets.enter(outer);

    RetryBudgets.Suspension suspension = budgets.suspend();
    assertNotCurrent(outer);
    RetryBudget inner = budgets.start(RetryBudget.Observer.NONE);
    long started = System.nanoTime();
    inner.awaitTurn("counter", "a", true);
    inner.releaseTurn();
    budgets.resume(suspension);

    assertFalse(budgets.contendedStreams().contention("counter", "a").queuedSince(started),
        "waited in line behind the operation it runs inside");
    assertFalse(inner.holdsTurn());
    assertTrue(outer.holdsTurn(), "the inner operation gave back no turn of the outer one's");
    assertSame(outer, budgets.current());
    budgets.leave(before);
    outer.releaseTurn();
  }

  @Test
  void aSuspensionPutsBackWhatWasCurrentAndSuspendedBefore() {
    RetryBudget outer = budgets.start(RetryBudget.Observer.NONE);
    RetryBudget before = budgets.enter(outer);
    RetryBudgets.Suspension first = budgets.suspend();
    RetryBudget inner = budgets.start(RetryBudget.Observer.NONE);
    budgets.enter(inner);
    RetryBudgets.Suspension second = budgets.suspend();

    assertSame(inner, second.outer());
    assertSame(outer, second.outerSuspended());
    budgets.resume(second);
    assertSame(inner, budgets.current());
    budgets.leave(null);
    budgets.resume(first);
    assertSame(outer, budgets.current());
    budgets.leave(before);
  }

  private void assertNotCurrent(RetryBudget budget) {
    assertFalse(budgets.current() == budget, "the suspended budget is no longer current");
  }
}
