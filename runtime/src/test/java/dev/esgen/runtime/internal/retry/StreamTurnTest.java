package dev.esgen.runtime.internal.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StreamTurnTest {

  @Test
  void writersGetTheTurnInTheOrderTheyAskedAndTheLastFreesIt() {
    StreamTurn turn = new StreamTurn();
    assertTrue(turn.free());
    assertTrue(turn.request().join(), "no one holds it: at once");
    assertFalse(turn.free());
    List<Integer> order = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      int writer = i;
      turn.request().thenAccept(got -> order.add(writer));
    }
    assertEquals(List.of(), order);
    turn.release();
    turn.release();
    assertEquals(List.of(1, 2), order);
    turn.release();
    assertEquals(List.of(1, 2, 3), order);
    assertFalse(turn.free(), "the third still holds it");
    turn.release();
    assertTrue(turn.free());
  }

  @Test
  void aWriterThatGaveUpLeavesTheLineAndIsSkipped() {
    StreamTurn turn = new StreamTurn();
    turn.request().join();
    CompletableFuture<Boolean> impatient = turn.request();
    CompletableFuture<Boolean> patient = turn.request();
    assertTrue(impatient.complete(false), "a time-out before the turn came");
    turn.release();
    assertFalse(impatient.join());
    assertTrue(patient.isDone() && patient.join(), "the turn went past the one that gave up");
    turn.release();
    assertTrue(turn.free());
  }

  @Test
  void aThreadWaitsForTheTurnAnAsynchronousWriterHandsOn() throws Exception {
    StreamTurn turn = new StreamTurn();
    turn.request().join();
    CountDownLatch waiting = new CountDownLatch(1);
    CompletableFuture<Boolean> blocked = CompletableFuture.supplyAsync(() -> {
      CompletableFuture<Boolean> requested = turn.request();
      waiting.countDown();
      return turn.await(requested, TimeUnit.SECONDS.toNanos(30));
    });
    assertTrue(waiting.await(30, TimeUnit.SECONDS));
    turn.release();
    assertTrue(blocked.get(30, TimeUnit.SECONDS), "handed on to the waiting thread");
    assertFalse(turn.free());
    turn.release();
    assertTrue(turn.free());
  }

  @Test
  void aThreadWhoseWaitEndsHoldsNoTurn() {
    StreamTurn turn = new StreamTurn();
    turn.request().join();
    assertFalse(turn.await(turn.request(), TimeUnit.MILLISECONDS.toNanos(1)), "the wait ended first");
    turn.release();
    assertTrue(turn.free(), "nobody was handed the turn: the one waiting had left the line");
  }

  @Test
  void anInterruptedThreadLeavesTheLineAndTheHolderKeepsTheTurn() {
    StreamTurn turn = new StreamTurn();
    turn.request().join();
    CompletableFuture<Boolean> interrupted = turn.request();
    CompletableFuture<Boolean> after = turn.request();
    Thread.currentThread().interrupt();
    try {
      assertFalse(turn.await(interrupted, TimeUnit.SECONDS.toNanos(30)));
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
    } finally {
      Thread.interrupted();
    }
    assertFalse(after.isDone(), "the holder still holds the turn: no one is handed it");
    assertFalse(turn.free());
    turn.release();
    assertTrue(after.join(), "the holder hands it past the one that left");
    turn.release();
    assertTrue(turn.free());
  }

  @Test
  void anInterruptedThreadAloneInLineLeavesTheTurnHeld() {
    StreamTurn turn = new StreamTurn();
    turn.request().join();
    Thread.currentThread().interrupt();
    try {
      assertFalse(turn.await(turn.request(), TimeUnit.SECONDS.toNanos(30)));
    } finally {
      Thread.interrupted();
    }
    assertFalse(turn.free(), "the holder still holds the turn");
    turn.release();
    assertTrue(turn.free());
  }

  /**
   * The holder hands the turn on while the waiting thread is interrupted: whichever comes first, a thread
   * whose wait says it holds no turn leaves none held, and one that holds it is the only one.
   */
  @Test
  void anInterruptRacingTheHandOverLeavesNoTurnHeldByNoOne() throws Exception {
    for (int i = 0; i < 500; i++) {
      StreamTurn turn = new StreamTurn();
      turn.request().join();
      CompletableFuture<Boolean> requested = turn.request();
      CountDownLatch started = new CountDownLatch(1);
      CompletableFuture<Boolean> got = new CompletableFuture<>();
      Thread waiter = new Thread(() -> {
        started.countDown();
        got.complete(turn.await(requested, TimeUnit.SECONDS.toNanos(30)));
      });
      waiter.start();
      assertTrue(started.await(30, TimeUnit.SECONDS));
      waiter.interrupt();
      turn.release();
      waiter.join(TimeUnit.SECONDS.toMillis(30));
      if (got.get(30, TimeUnit.SECONDS)) {
        assertFalse(turn.free(), "round " + i + ": the waiter holds the turn");
        turn.release();
      }
      assertTrue(turn.free(), "round " + i + ": the turn is free once its holder passed it on");
    }
  }
}
