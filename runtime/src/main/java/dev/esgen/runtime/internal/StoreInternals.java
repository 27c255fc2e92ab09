package dev.esgen.runtime.internal;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.StorageLayout;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a repository needs from its store beyond the public {@link dev.esgen.runtime.EventStore}: the storage layout of an
 * aggregate type, the recorder that runs its operations, how its reads default, and its state cache; and
 * what the change feed needs besides: the store's settings and the client its requests go through. Every
 * store esgen ships has one, reached through {@link StoreAccess} rather than a public method of the store;
 * it is no API for users, who only ever hand a store to a repository.
 *
 * <pre>{@code
 * StorageLayout layout = StoreAccess.internals(store).orElseThrow().layoutFor(definition);
 * }</pre>
 */
public interface StoreInternals {

  /**
   * Claims {@code definition}'s stored name for its aggregate type in this store; a repository does so
   * when it is constructed. Claiming it again for the same type is fine.
   *
   * @throws dev.esgen.runtime.error.DuplicateAggregateNameException when another aggregate type claimed
   *     the name
   */
  void claimName(AggregateDefinition<?, ?, ?> definition);

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

  /** The settings the store was created with: table names, clock, retry policy. */
  StoreConfig config();

  /**
   * The client the layouts send through: esgen's retries (within the config's retry policy) and capacity
   * metering around the client the store was created with. It implements only the operations esgen sends.
   */
  DynamoDbClient client();
}
