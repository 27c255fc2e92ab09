package dev.esgen.runtime.testing;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.history.RecordedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs commands from several threads at once, for the tests of writers racing on one stream. */
public final class Contention {

  /**
   * Patient retries for tests: four threads on one stream on a busy, shared machine can make one command
   * lose more than the default ten times without anything being wrong.
   */
  public static final RetryPolicy PATIENT = new RetryPolicy(40, Duration.ofMillis(5), Duration.ofMillis(500));

  /** One command: the {@code index}-th of thread {@code thread}. */
  @FunctionalInterface
  public interface Command {
    void run(int thread, int index) throws Exception;
  }

  private Contention() {}

  /**
   * Runs {@code commandsPerThread} commands on each of {@code threads} threads, each thread in order, and
   * waits for all; the first failure is rethrown.
   */
  public static void run(int threads, int commandsPerThread, Command command) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < commandsPerThread; i++) {
            command.run(thread, i);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(90, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The tags the tests' commands give their {@link Incremented} events, {@code "thread-index"}: of
   * {@code commandsPerThread} commands on each of {@code threads} threads, thread by thread, each in order.
   */
  public static List<String> tags(int threads, int commandsPerThread) {
    List<String> tags = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      for (int i = 0; i < commandsPerThread; i++) {
        tags.add(t + "-" + i);
      }
    }
    return tags;
  }

  /** The tags of the {@link Incremented} events among {@code events}, sorted. */
  public static List<String> sortedTags(Stream<RecordedEvent<CounterEvent>> events) {
    return events.map(RecordedEvent::event)
        .filter(Incremented.class::isInstance)
        .map(e -> ((Incremented) e).tag())
        .sorted()
        .toList();
  }
}
