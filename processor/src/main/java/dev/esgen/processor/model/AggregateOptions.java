package dev.esgen.processor.model;

import java.util.Optional;

/**
 * The storage options of one {@code @Aggregate}, already checked.
 *
 * @param shards the number of partition-key shards
 * @param snapshotEvery snapshot after this many events
 * @param snapshotsToKeep older snapshots kept beside the current one
 * @param snapshotTtl an ISO-8601 duration when old snapshots expire through TTL instead of being deleted
 */
public record AggregateOptions(int shards, int snapshotEvery, int snapshotsToKeep, Optional<String> snapshotTtl) {}
