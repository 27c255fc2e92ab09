package dev.esgen.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.AsyncStoreInternals;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreParts;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.journal.AsyncJournalLayout;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryingAsyncClient;
import dev.esgen.runtime.internal.storage.AsyncStorageLayout;
import dev.esgen.runtime.internal.tip.AsyncTipLayout;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;

/**
 * The {@link AsyncEventStore} on Amazon DynamoDB, over a {@link DynamoDbAsyncClient}: the same tables,
 * items, retries (within the config's {@link dev.esgen.runtime.config.RetryPolicy}) and listener reports
 * as {@link DynamoDbEventStore}, with every operation a chain of futures that never blocks a thread.
 * Pauses before a retry are spent on a delayed executor; the step after one runs on the
 * {@link ForkJoinPool#commonPool() common pool}. Everything else runs on the threads that complete the
 * client's futures (see {@code docs/async.md} for what that means for callbacks and the HTTP client's
 * connection pool).
 *
 * <p>Asynchronous repositories serve aggregate types of both layouts, {@link LayoutKind#JOURNAL} (the
 * default) and {@link LayoutKind#TIP}, each sending the same requests as its synchronous twin. The store
 * is safe to share; it does not own the client and does not close it.
 *
 * <pre>{@code
 * DynamoDbAsyncClient client = DynamoDbAsyncClient.builder()
 *     .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(64))
 *     .build();
 * AsyncEventStore store = DynamoDbAsyncEventStore.create(client, StoreConfig.defaults());
 * BankAccountAsyncRepository accounts = new BankAccountAsyncRepository(store);
 * }</pre>
 */
public final class DynamoDbAsyncEventStore implements AsyncEventStore {

  static {
    StoreAccess.registerAsync(DynamoDbAsyncEventStore.class, store -> store.internals);
  }

  private final StoreParts parts;
  private final Internals internals;

  /** A store on {@code client} with {@code parts}, which a synchronous store may share with it. */
  DynamoDbAsyncEventStore(DynamoDbAsyncClient client, StoreParts parts) {
    this.parts = parts;
    this.internals = new Internals(parts, client, ForkJoinPool.commonPool());
  }

  /** A store on {@code client} with {@code config}, with a state cache and name claims of its own. */
  public static DynamoDbAsyncEventStore create(DynamoDbAsyncClient client, StoreConfig config) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(config, "config");
    return new DynamoDbAsyncEventStore(client, StoreParts.of(config));
  }

  /** The settings this store was created with. */
  public StoreConfig config() {
    return parts.config();
  }

  @Override
  public ObjectMapper objectMapper() {
    return parts.objectMapper();
  }

  /** What asynchronous repositories need of the store, out of its public API (see {@link StoreAccess}). */
  private static final class Internals implements AsyncStoreInternals {

    private final StoreParts parts;
    private final Executor executor;
    private final AsyncJournalLayout journal;
    private final AsyncTipLayout tip;

    Internals(StoreParts parts, DynamoDbAsyncClient client, Executor executor) {
      this.parts = parts;
      this.executor = executor;
      RetryingAsyncClient sending = new RetryingAsyncClient(client, executor);
      this.journal = new AsyncJournalLayout(sending, parts.config(), parts.recorder());
      this.tip = new AsyncTipLayout(sending, parts.config(), parts.recorder());
    }

    @Override
    public void claimName(AggregateDefinition<?, ?, ?> definition) {
      parts.claimName(definition);
    }

    @Override
    public AsyncStorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition) {
      return definition.layout() == LayoutKind.TIP ? tip : journal;
    }

    @Override
    public OperationRecorder recorder() {
      return parts.recorder();
    }

    @Override
    public ReadConsistency readConsistency(String aggregateType) {
      return parts.readConsistency(aggregateType);
    }

    @Override
    public StateCache stateCache() {
      return parts.stateCache();
    }

    @Override
    public Executor executor() {
      return executor;
    }
  }
}
