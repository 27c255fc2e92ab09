package dev.esgen.runtime.testing;

import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.metrics.StoreListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A listener that keeps what a store reports, in order: its operations, failed attempts and skipped
 * snapshots. Thread-safe.
 *
 * <pre>{@code
 * RecordingListener heard = new RecordingListener();
 * CounterRepository counters = new CounterRepository(TestDynamo.store(StoreConfig.defaults().withListener(heard)));
 * counters.create(new CounterCreated(id, "c"));
 * assertEquals("create", heard.operations().get(0).operation());
 * }</pre>
 */
public final class RecordingListener implements StoreListener {

  private final List<OperationMetrics> operations = new CopyOnWriteArrayList<>();
  private final List<FailedAttempt> failedAttempts = new CopyOnWriteArrayList<>();
  private final List<SkippedSnapshot> skippedSnapshots = new CopyOnWriteArrayList<>();

  @Override
  public void onOperation(OperationMetrics metrics) {
    operations.add(metrics);
  }

  @Override
  public void onFailedAttempt(FailedAttempt attempt) {
    failedAttempts.add(attempt);
  }

  @Override
  public void onSnapshotSkipped(SkippedSnapshot snapshot) {
    skippedSnapshots.add(snapshot);
  }

  /** The operations reported so far; clear it to start over. */
  public List<OperationMetrics> operations() {
    return operations;
  }

  /** The failed attempts reported so far; clear it to start over. */
  public List<FailedAttempt> failedAttempts() {
    return failedAttempts;
  }

  /** The snapshots reported skipped so far. */
  public List<SkippedSnapshot> skippedSnapshots() {
    return skippedSnapshots;
  }
}
