package dev.esgen.runtime.internal;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.StorageLayout;

/**
 * What a repository needs from its store beyond the public {@link dev.esgen.runtime.EventStore}: the storage layout of an
 * aggregate type, the recorder that runs its operations, how its reads default, and its state cache. Every store esgen ships implements it; it is
 * no API for users, who only ever hand a store to a repository.
 *
 * <pre>{@code
 * StorageLayout layout = ((StoreInternals) store).layoutFor(definition);
 * }</pre>
 */
public interface StoreInternals {

  /** The storage layout that holds streams of the aggregate type {@code definition} describes. */
  StorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition);

  /** Runs each repository operation with its retry budget and measures it for the store's listener. */
  OperationRecorder recorder();

  /** How loads and lookups of {@code aggregateType} read when a call does not say; strongly consistent unless set. */
  default ReadConsistency readConsistency(String aggregateType) {
    return ReadConsistency.STRONG;
  }

  /** What the store remembers of the streams it read and wrote, shared by its repositories; none unless set. */
  default StateCache stateCache() {
    return StateCache.disabled();
  }
}
