package dev.esgen.runtime.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A failure no retry can fix (here a missing table) ends the operation at once, and the listener hears of it
 * as a failed attempt of kind FATAL that was not retried, as docs/metrics.md and docs/operations.md say:
 * every failed attempt is reported, with its kind.
 */
class FatalFailedAttemptTest {

  private final RecordingListener listener = new RecordingListener();

  private StoreConfig configWithoutTables() {
    String missing = "missing-" + UUID.randomUUID();
    return StoreConfig.defaults()
        .withJournalTable(missing + "-journal")
        .withSnapshotTable(missing + "-snapshot")
        .withTipTable(missing + "-streams")
        .withListener(listener);
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aFatalFailureIsReportedAsAFailedAttemptThatWasNotRetried(LayoutKind layout) {
    IndexedCounterRepository counters = new IndexedCounterRepository(TestDynamo.store(configWithoutTables()), layout, 0);

    assertThrows(MissingTableException.class, () -> counters.create(new CounterCreated(CounterId.random(), "c")));

    assertFatalAttemptHeard();
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anAsynchronousRepositoryReportsAFatalFailureAsTheSynchronousOneDoes(LayoutKind layout) {
    AsyncCounterRepository counters = new AsyncCounterRepository(
        DynamoDbAsyncEventStore.create(AsyncDynamo.client(), configWithoutTables()), layout, 0);

    CompletionException e = assertThrows(CompletionException.class,
        () -> counters.create(new CounterCreated(CounterId.random(), "c")).join());

    assertInstanceOf(MissingTableException.class, e.getCause());
    assertFatalAttemptHeard();
  }

  private void assertFatalAttemptHeard() {
    List<FailedAttempt> failed = listener.failedAttempts();
    assertEquals(1, failed.size(), failed.toString());
    FailedAttempt attempt = failed.get(0);
    assertEquals("create", attempt.operation());
    assertEquals(FailureKind.FATAL, attempt.kind());
    assertEquals("ResourceNotFoundException", attempt.errorCode());
    assertEquals(1, attempt.attempt());
    assertEquals(Optional.empty(), attempt.retryAfter());
  }
}
