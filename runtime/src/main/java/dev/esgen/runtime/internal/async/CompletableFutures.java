package dev.esgen.runtime.internal.async;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The few things esgen's asynchronous code does with {@link CompletableFuture}s over and over: run a
 * step whose exceptions become a failed future, wait without a thread, and hand callers a future that
 * fails with the exception itself rather than a {@link CompletionException} around it.
 *
 * <pre>{@code
 * return CompletableFutures.unwrapped(CompletableFutures.start(() -> layout.load(definition, id, op)));
 * }</pre>
 */
public final class CompletableFutures {

  private CompletableFutures() {}

  /** {@code step}'s future, or a future failed with what {@code step} threw: a step never throws at its caller. */
  public static <T> CompletableFuture<T> start(Supplier<? extends CompletableFuture<T>> step) {
    try {
      return step.get();
    } catch (RuntimeException | Error e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Runs {@code step} after {@code pause} on {@code executor}, holding no thread while waiting: the
   * delayed executor of {@link CompletableFuture#delayedExecutor} schedules it.
   */
  public static <T> CompletableFuture<T> after(
      Duration pause, Executor executor, Supplier<? extends CompletableFuture<T>> step) {
    Executor delayed = CompletableFuture.delayedExecutor(pause.toNanos(), TimeUnit.NANOSECONDS, executor);
    return CompletableFuture.supplyAsync(() -> start(step), delayed).thenCompose(future -> future);
  }

  /** {@code future}, failing with what {@code translate} makes of its (unwrapped) failure. */
  public static <T> CompletableFuture<T> translateFailure(
      CompletableFuture<T> future, Function<Throwable, Throwable> translate) {
    return future.handle((value, failure) -> failure == null
            ? CompletableFuture.completedFuture(value)
            : CompletableFuture.<T>failedFuture(translate.apply(unwrap(failure))))
        .thenCompose(next -> next);
  }

  /** The failure itself: what a {@link CompletionException} or {@link ExecutionException} carries. */
  public static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /**
   * A future completed as {@code future} is, failed with the unwrapped failure: what a caller's
   * {@code exceptionally}, {@code whenComplete} or {@code get()} sees is the exception itself.
   */
  public static <T> CompletableFuture<T> unwrapped(CompletableFuture<T> future) {
    CompletableFuture<T> result = new CompletableFuture<>();
    future.whenComplete((value, failure) -> {
      if (failure == null) {
        result.complete(value);
      } else {
        result.completeExceptionally(unwrap(failure));
      }
    });
    return result;
  }
}
