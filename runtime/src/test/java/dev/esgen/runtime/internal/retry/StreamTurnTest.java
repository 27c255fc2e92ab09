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
}
