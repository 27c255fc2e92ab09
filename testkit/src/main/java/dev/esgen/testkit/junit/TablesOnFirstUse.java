package dev.esgen.testkit.junit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.AsyncStoreInternals;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.AsyncStorageLayout;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.provision.TableProvisioner;
import java.util.concurrent.Executor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A {@link DynamoDbEventStore} that creates its tables when a repository first uses them: the first
 * aggregate type to reach it creates the journal, snapshot and tip tables, and one with more
 * {@code @Indexed} columns than any before adds the index slots it needs. A test therefore needs no list of
 * its aggregates, and the same test code runs on this store and in memory. Its {@link #async} twin does the
 * same for asynchronous repositories, on the same tables.
 */
final class TablesOnFirstUse implements EventStore, StoreInternals {

  static {
    StoreAccess.register(TablesOnFirstUse.class, store -> store);
    StoreAccess.registerAsync(AsyncTablesOnFirstUse.class, store -> store);
  }

  private final DynamoDbEventStore store;
  private final StoreInternals internals;
  private final TableProvisioner provisioner;
  /** The most index slots provisioned so far; -1 before the tables exist. */
  private volatile int slots = -1;

  TablesOnFirstUse(DynamoDbClient client, StoreConfig config) {
    this.store = DynamoDbEventStore.create(client, config);
    this.internals = StoreAccess.internals(store).orElseThrow();
    this.provisioner = new TableProvisioner(client, config);
  }

  @Override
  public ObjectMapper objectMapper() {
    return store.objectMapper();
  }

  @Override
  public StorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition) {
    provisionFor(definition);
    return internals.layoutFor(definition);
  }

  @Override
  public OperationRecorder recorder() {
    return internals.recorder();
  }

  @Override
  public void claimName(AggregateDefinition<?, ?, ?> definition) {
    internals.claimName(definition);
  }

  @Override
  public ReadConsistency readConsistency(String aggregateType) {
    return internals.readConsistency(aggregateType);
  }

  @Override
  public StateCache stateCache() {
    return internals.stateCache();
  }

  @Override
  public StoreConfig config() {
    return store.config();
  }

  @Override
  public DynamoDbClient client() {
    return internals.client();
  }

  /**
   * An asynchronous store on {@code asyncClient} (which must reach the same DynamoDB Local) that shares this
   * store's config, cache and name claims, and creates the tables when an asynchronous repository reaches
   * them first.
   */
  AsyncEventStore async(DynamoDbAsyncClient asyncClient) {
    return new AsyncTablesOnFirstUse(StoreAccess.internals(store.withAsyncClient(asyncClient)).orElseThrow());
  }

  /** Creates the tables, or adds index slots, that {@code definition} needs and no earlier one did. */
  private void provisionFor(AggregateDefinition<?, ?, ?> definition) {
    if (definition.indexColumns().slotted().size() > slots) {
      provision(definition);
    }
  }

  private synchronized void provision(AggregateDefinition<?, ?, ?> definition) {
    int needed = definition.indexColumns().slotted().size();
    if (needed > slots) {
      provisioner.createTablesIfMissing(definition);
      slots = needed;
    }
  }

  /** The asynchronous store of {@link #async}: the tables are this store's, created on first use by either. */
  private final class AsyncTablesOnFirstUse implements AsyncEventStore, AsyncStoreInternals {

    private final AsyncStoreInternals async;

    AsyncTablesOnFirstUse(AsyncStoreInternals async) {
      this.async = async;
    }

    @Override
    public ObjectMapper objectMapper() {
      return store.objectMapper();
    }

    @Override
    public AsyncStorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition) {
      provisionFor(definition);
      return async.layoutFor(definition);
    }

    @Override
    public void claimName(AggregateDefinition<?, ?, ?> definition) {
      async.claimName(definition);
    }

    @Override
    public OperationRecorder recorder() {
      return async.recorder();
    }

    @Override
    public ReadConsistency readConsistency(String aggregateType) {
      return async.readConsistency(aggregateType);
    }

    @Override
    public StateCache stateCache() {
      return async.stateCache();
    }

    @Override
    public Executor executor() {
      return async.executor();
    }

    @Override
    public String toString() {
      return "DynamoDbAsyncEventStore on DynamoDB Local, tables " + store.config().journalTable() + ", "
          + store.config().snapshotTable() + ", " + store.config().tipTable();
    }
  }

  @Override
  public String toString() {
    return "DynamoDbEventStore on DynamoDB Local, tables " + store.config().journalTable() + ", "
        + store.config().snapshotTable() + ", " + store.config().tipTable();
  }
}
