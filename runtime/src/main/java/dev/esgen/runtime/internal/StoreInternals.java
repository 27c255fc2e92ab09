package dev.esgen.runtime.internal;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.StorageLayout;

/**
 * What a repository needs from its store beyond the public {@link dev.esgen.runtime.EventStore}: the storage layout of an
 * aggregate type and the recorder that runs its operations. Every store esgen ships implements it; it is
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
}
