package dev.esgen.runtime.streams;

import java.time.Duration;

/** Waiting in tests for a started poller to stop by itself. */
final class PollerWaits {

  private PollerWaits() {}

  /** Waits up to {@code within} for {@code poller} to stop; whether it did. */
  static boolean stopsWithin(StreamPoller poller, Duration within) throws InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (poller.isRunning() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return !poller.isRunning();
  }
}
