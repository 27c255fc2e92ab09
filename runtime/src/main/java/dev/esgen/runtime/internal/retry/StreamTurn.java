package dev.esgen.runtime.internal.retry;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one turn to write a contended stream that the writers of one store pass on to each other, in the
 * order they asked for it: a fair lock that a thread can wait for ({@link #await}) and an asynchronous
 * operation can wait for without holding a thread ({@link #request}). Both kinds of writer stand in the
 * same line.
 *
 * <pre>{@code
 * CompletableFuture<Boolean> mine = turn.request();        // completes with true when it is this writer's
 * mine.completeOnTimeout(false, 50, MILLISECONDS);         // a writer that gives up leaves the line
 * mine.thenAccept(got -> { try { write(); } finally { if (got) turn.release(); } });
 * }</pre>
 */
final class StreamTurn {

  private boolean held;
  /** The writers waiting, first come first; one that gave up is still here until {@link #release} skips it. */
  private final ArrayDeque<CompletableFuture<Boolean>> line = new ArrayDeque<>();

  /**
   * Asks for the turn: a future completed with true at once when no one holds it or waits for it, else
   * when the writers before have released it. Completing it with false before that (a time-out) leaves
   * the line; whoever completes it first decides whether the turn was taken.
   */
  synchronized CompletableFuture<Boolean> request() {
    if (!held && line.isEmpty()) {
      held = true;
      return CompletableFuture.completedFuture(Boolean.TRUE);
    }
    CompletableFuture<Boolean> waiting = new CompletableFuture<>();
    line.add(waiting);
    return waiting;
  }

  /**
   * Waits on this thread for the turn, at most {@code nanos}.
   *
   * @return true when the turn is this thread's; false when the wait ended first or the thread was
   *     interrupted (its interrupt flag is then set again), and then no turn is held
   */
  boolean await(CompletableFuture<Boolean> requested, long nanos) {
    try {
      return requested.get(Math.max(nanos, 0), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return giveUp(requested);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      // Handed the turn just before the interrupt: it is this thread's, and it passes it on.
      if (giveUp(requested)) {
        release();
      }
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException("a turn is only ever completed with true or false", e);
    }
  }

  /** Leaves the line: false when that came first, true when the turn was handed over just before. */
  private static boolean giveUp(CompletableFuture<Boolean> requested) {
    return !requested.complete(Boolean.FALSE) && requested.join();
  }

  /**
   * Hands the turn to the first writer still waiting, or frees it. The writer's continuation runs on this
   * thread, outside the lock.
   */
  void release() {
    while (true) {
      CompletableFuture<Boolean> next;
      synchronized (this) {
        next = line.poll();
        if (next == null) {
          held = false;
          return;
        }
      }
      if (next.complete(Boolean.TRUE)) {
        return;
      }
    }
  }

  /** Whether no writer holds the turn or waits for it (a moment's view). */
  synchronized boolean free() {
    // The turn is only ever freed with no one left in line.
    return !held;
  }
}
