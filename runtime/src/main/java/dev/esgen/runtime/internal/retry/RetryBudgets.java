package dev.esgen.runtime.internal.retry;

import dev.esgen.runtime.config.RetryPolicy;
import java.util.Objects;

/**
 * Hands each running operation's {@link RetryBudget} to the code below it on the same thread, so the
 * retrying client and the layouts draw on the budget the repository operation started with. Code that
 * runs outside an operation (a layout used directly) gets a fresh budget per call.
 *
 * <pre>{@code
 * RetryBudgets budgets = new RetryBudgets(RetryPolicy.defaults());
 * RetryBudget outer = budgets.enter(new RetryBudget(policy, observer));
 * try {
 *   layout.append(request);                      // budgets.current() inside: the operation's budget
 * } finally {
 *   budgets.leave(outer);
 * }
 * }</pre>
 */
public final class RetryBudgets {

  private final RetryPolicy policy;
  private final ContendedStreams contended;
  private final ThreadLocal<RetryBudget> running = new ThreadLocal<>();
  // The budget of the operation whose decide function runs on this thread, while it runs (see suspend).
  private final ThreadLocal<RetryBudget> suspended = new ThreadLocal<>();

  public RetryBudgets(RetryPolicy policy) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.contended = new ContendedStreams(policy);
  }

  /** The policy new budgets are made from. */
  public RetryPolicy policy() {
    return policy;
  }

  /** The contended streams whose turns this store's operations take. */
  ContendedStreams contendedStreams() {
    return contended;
  }

  /**
   * A budget for a new operation, which takes turns on contended streams with the store's other writers,
   * unless it starts inside the decide function of an operation holding a turn ({@link #suspend}).
   */
  public RetryBudget start(RetryBudget.Observer observer) {
    RetryBudget budget = new RetryBudget(policy, observer, contended);
    RetryBudget outer = suspended.get();
    if (outer != null) {
      budget.startInside(outer);
    }
    return budget;
  }

  /** The budget of the operation running on this thread, or a fresh one when none is. */
  public RetryBudget current() {
    RetryBudget budget = running.get();
    return budget != null ? budget : start(RetryBudget.Observer.NONE);
  }

  /**
   * Makes {@code budget} this thread's current budget until {@link #leave}, which must follow in a
   * {@code finally}; returns the budget it replaces (null when none), for {@code leave}. A pair of calls
   * rather than a method taking the operation as a lambda: the operation's requests then run two stack
   * frames shallower, and every exception filled in below them (the JDK's HTTP client makes one for each
   * request on a kept-alive connection) walks every frame.
   */
  public RetryBudget enter(RetryBudget budget) {
    RetryBudget outer = running.get();
    running.set(Objects.requireNonNull(budget, "budget"));
    return outer;
  }

  /**
   * Leaves this thread without a current budget until {@link #resume}, which must follow in a
   * {@code finally}. For the caller's code that runs inside an operation (a decide function): an operation
   * it starts gets a budget of its own, which waits in no line while the suspended operation holds a
   * stream's turn (the operation around it would be the one it waits for).
   */
  public Suspension suspend() {
    Suspension suspension = new Suspension(running.get(), suspended.get());
    if (suspension.outer() != null) {
      suspended.set(suspension.outer());
    }
    running.set(null);
    return suspension;
  }

  /** Makes the budgets {@link #suspend} put aside current again. */
  public void resume(Suspension suspension) {
    running.set(suspension.outer());
    suspended.set(suspension.outerSuspended());
  }

  /** What {@link #suspend} put aside: the running budget and the one suspended before it, each null when none. */
  public record Suspension(RetryBudget outer, RetryBudget outerSuspended) {}

  /**
   * Makes {@code outer}, which {@link #enter} returned, the current budget again. The entry stays in the
   * thread's map holding null rather than being removed, as removing it clears a reference in the VM on
   * every operation.
   */
  public void leave(RetryBudget outer) {
    running.set(outer);
  }
}
