package dev.esgen.runtime.internal.retry;

import dev.esgen.runtime.config.RetryPolicy;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Hands each running operation's {@link RetryBudget} to the code below it on the same thread, so the
 * retrying client and the layouts draw on the budget the repository operation started with. Code that
 * runs outside an operation (a layout used directly) gets a fresh budget per call.
 *
 * <pre>{@code
 * RetryBudgets budgets = new RetryBudgets(RetryPolicy.defaults());
 * budgets.within(new RetryBudget(policy, observer), () -> layout.append(request));
 * RetryBudget budget = budgets.current();        // inside: the operation's budget
 * }</pre>
 */
public final class RetryBudgets {

  private final RetryPolicy policy;
  private final ContendedStreams contended;
  private final ThreadLocal<RetryBudget> running = new ThreadLocal<>();

  public RetryBudgets(RetryPolicy policy) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.contended = new ContendedStreams(policy);
  }

  /** The policy new budgets are made from. */
  public RetryPolicy policy() {
    return policy;
  }

  /** A budget for a new operation, which takes turns on contended streams with the store's other writers. */
  public RetryBudget start(RetryBudget.Observer observer) {
    return new RetryBudget(policy, observer, contended);
  }

  /** The budget of the operation running on this thread, or a fresh one when none is. */
  public RetryBudget current() {
    RetryBudget budget = running.get();
    return budget != null ? budget : start(RetryBudget.Observer.NONE);
  }

  /** Runs {@code body} with {@code budget} as this thread's current budget. */
  public <T> T within(RetryBudget budget, Supplier<T> body) {
    RetryBudget outer = running.get();
    running.set(budget);
    try {
      return body.get();
    } finally {
      if (outer == null) {
        running.remove();
      } else {
        running.set(outer);
      }
    }
  }
}
