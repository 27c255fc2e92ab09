package dev.esgen.runtime.internal.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.esgen.runtime.config.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a store remembers of a contended stream while one of its writers holds the stream's turn. */
class ContendedStreamsTest {

  @Test
  void aTurnHeldLongerThanTheStoreRemembersOtherProcessesKeepsItsLine() throws InterruptedException {
    // The store remembers a lost write for a second (10 × 10 ms, at least 1 s); an operation may last 3 s.
    RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofSeconds(3));
    ContendedStreams streams = new ContendedStreams(policy);
    ContendedStreams.Contention contention = streams.conflicted("counter", "a", false);
    long deadline = System.nanoTime() + policy.deadline().toNanos();
    assertEquals(ContendedStreams.Wait.AT_ONCE, ContendedStreams.take(contention, deadline));

    Thread.sleep(1_500);                                   // one write that takes long, in the turn

    ContendedStreams.Contention found = streams.contention("counter", "a");
    assertNotNull(found, "the turn is still held: the stream is contended");
    assertSame(contention, found, "a writer arriving now stands in the holder's line, not in a new one");
    ContendedStreams.release(contention);
  }
}
