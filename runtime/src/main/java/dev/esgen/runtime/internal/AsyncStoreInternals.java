package dev.esgen.runtime.internal;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.AsyncStorageLayout;
import java.util.concurrent.Executor;

/**
 * What an asynchronous repository needs from its store beyond the public
 * {@link dev.esgen.runtime.AsyncEventStore}: as {@link StoreInternals} for the synchronous one, plus the
 * executor that runs what follows a pause. Every asynchronous store esgen ships has one, reached through
 * {@link StoreAccess}; it is no API for users.
 *
 * <pre>{@code
 * AsyncStorageLayout layout = StoreAccess.internals(asyncStore).orElseThrow().layoutFor(definition);
 * }</pre>
 */
public interface AsyncStoreInternals {

  /**
   * Claims {@code definition}'s stored name for its aggregate type, as {@link StoreInternals#claimName}.
   *
   * @throws dev.esgen.runtime.error.DuplicateAggregateNameException when another aggregate type claimed it
   */
  void claimName(AggregateDefinition<?, ?, ?> definition);

  /** The asynchronous storage layout of the aggregate type {@code definition} describes. */
  AsyncStorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition);

  /** Starts each repository operation with its retry budget and measures it for the store's listener. */
  OperationRecorder recorder();

  /** How loads and lookups of {@code aggregateType} read when a call does not say. */
  ReadConsistency readConsistency(String aggregateType);

  /** What the store remembers of the streams it read and wrote, shared with the synchronous store it came from. */
  StateCache stateCache();

  /** Runs the step after a pause (a retry's, a conflict's backoff); never blocked by esgen. */
  Executor executor();
}
