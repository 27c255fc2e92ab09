package dev.esgen.testkit.contract;

import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.metrics.StoreListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps what a store reported, for the tests of one class; they tell their own apart by aggregate type or id. */
final class RecordingListener implements StoreListener {

  private final List<OperationMetrics> operations = new CopyOnWriteArrayList<>();
  private final List<SkippedSnapshot> skipped = new CopyOnWriteArrayList<>();

  @Override
  public void onOperation(OperationMetrics metrics) {
    operations.add(metrics);
  }

  @Override
  public void onSnapshotSkipped(SkippedSnapshot snapshot) {
    skipped.add(snapshot);
  }

  /** The operations on aggregate type {@code aggregateType}, in the order they ended. */
  List<OperationMetrics> operations(String aggregateType) {
    return operations.stream().filter(m -> m.aggregateType().equals(aggregateType)).toList();
  }

  /** The snapshots of aggregate {@code aid} that were skipped. */
  List<SkippedSnapshot> skipped(String aid) {
    return skipped.stream().filter(s -> s.aggregateId().equals(aid)).toList();
  }
}
