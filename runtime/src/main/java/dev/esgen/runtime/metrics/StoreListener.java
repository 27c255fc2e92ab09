package dev.esgen.runtime.metrics;

/**
 * Hears about every repository operation a store carries out, with what it cost in DynamoDB: plug it
 * into a log, a test, or Micrometer (the {@code esgen-micrometer} module has a ready listener, see
 * docs/metrics.md).
 *
 * <p>The store calls the listener on the thread that ran the operation, after the operation finished
 * (successfully or not); for an asynchronous repository's operation, on the thread that completed it,
 * before the operation's future completes. A listener should be quick and must not throw; an exception it throws is
 * logged at WARN and otherwise ignored, so that reporting never breaks a write that already happened.
 * Failed attempts and skipped snapshots are reported as they happen, through the two default methods.
 *
 * <pre>{@code
 * StoreListener log = m -> LOG.info("{} {}: {} requests, {} WCU, {} ms", m.aggregateType(), m.operation(),
 *     m.requests(), m.writeCapacityUnits(), m.latency().toMillis());
 * EventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults().withListener(log));
 * }</pre>
 */
@FunctionalInterface
public interface StoreListener {

  /** A listener that ignores everything: the default. */
  StoreListener NONE = metrics -> {};

  /** Called once per repository operation ({@code create}, {@code append}, {@code transact}, {@code load}, ...). */
  void onOperation(OperationMetrics metrics);

  /**
   * Called for every failed attempt inside an operation, before esgen waits for the next one or gives
   * up. The default ignores it.
   */
  default void onFailedAttempt(FailedAttempt attempt) {}

  /** Called when a due snapshot was too large to store; the append itself was stored. The default ignores it. */
  default void onSnapshotSkipped(SkippedSnapshot snapshot) {}
}
