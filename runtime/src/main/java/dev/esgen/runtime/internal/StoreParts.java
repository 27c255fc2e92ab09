package dev.esgen.runtime.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryBudgets;

/**
 * What a DynamoDB store holds besides its client and layouts: its settings, the retry budgets and the
 * recorder that runs and measures its operations, its state cache and its aggregate name claims. The
 * synchronous and the asynchronous store answer the questions of {@link StoreInternals} and
 * {@link AsyncStoreInternals} that do not depend on the client from it, and an asynchronous store made
 * from a synchronous one shares that store's cache, listener, contention turns and claims by sharing
 * this one object.
 *
 * <pre>{@code
 * StoreParts parts = StoreParts.of(config);
 * DynamoDbClient sending = new RetryingDynamoDbClient(parts.recorder().meter(client), parts.budgets());
 * }</pre>
 */
public final class StoreParts {

  private final StoreConfig config;
  private final RetryBudgets budgets;
  private final OperationRecorder recorder;
  private final StateCache cache;
  private final AggregateNameClaims claimedNames = new AggregateNameClaims();

  private StoreParts(StoreConfig config) {
    this.config = config;
    this.budgets = new RetryBudgets(config.retryPolicy());
    this.recorder = new OperationRecorder(config.listener(), budgets);
    this.cache = StateCache.of(config.stateCache(), config.clock());
  }

  /** The parts of a new store with {@code config}: a fresh cache, no names claimed yet. */
  public static StoreParts of(StoreConfig config) {
    return new StoreParts(config);
  }

  /** The settings the store was created with. */
  public StoreConfig config() {
    return config;
  }

  /** The mapper of the settings, for generated codecs. */
  public ObjectMapper objectMapper() {
    return config.objectMapper();
  }

  /** The budgets the recorder hands its operations; the synchronous retrying client draws on them too. */
  public RetryBudgets budgets() {
    return budgets;
  }

  /** Runs each repository operation with its retry budget and measures it for the settings' listener. */
  public OperationRecorder recorder() {
    return recorder;
  }

  /** How loads and lookups of {@code aggregateType} read when a call does not say, as the settings choose. */
  public ReadConsistency readConsistency(String aggregateType) {
    return config.readConsistencyOf(aggregateType);
  }

  /** What the store remembers of the streams it read and wrote; disabled unless the settings switch it on. */
  public StateCache stateCache() {
    return cache;
  }

  /**
   * Claims {@code definition}'s stored name for its aggregate type, as {@link StoreInternals#claimName}.
   *
   * @throws dev.esgen.runtime.error.DuplicateAggregateNameException when another aggregate type claimed it
   */
  public void claimName(AggregateDefinition<?, ?, ?> definition) {
    claimedNames.claim(definition);
  }
}
