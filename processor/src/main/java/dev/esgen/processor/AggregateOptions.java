package dev.esgen.processor;

import java.util.Optional;

/**
 * The storage options of one {@code @Aggregate}, already checked.
 *
 * @param shards the number of partition-key shards
 * @param snapshotEvery snapshot after this many events
 * @param snapshotsToKeep older snapshots kept beside the current one
 * @param snapshotTtl an ISO-8601 duration when old snapshots expire through TTL instead of being deleted
 * @param tip the tip layout's options when the aggregate uses it; empty for the journal layout
 * @param async whether an asynchronous repository is generated too
 */
record AggregateOptions(int shards, int snapshotEvery, int snapshotsToKeep, Optional<String> snapshotTtl,
    Optional<TipOptions> tip, boolean async) {

  /**
   * The options of {@code layout = TIP}.
   *
   * @param maxBytes calve past this many bytes of events
   * @param maxEvents calve past this many events, 0 for no limit
   * @param snapshot whether the tip carries a snapshot
   */
  public record TipOptions(int maxBytes, int maxEvents, boolean snapshot) {}
}
