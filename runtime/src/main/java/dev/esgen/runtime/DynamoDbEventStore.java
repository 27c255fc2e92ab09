package dev.esgen.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.DuplicateAggregateNameException;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.internal.StoreParts;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.journal.JournalLayout;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryingDynamoDbClient;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.internal.tip.TipLayout;
import dev.esgen.runtime.provision.TableProvisioner;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The {@link EventStore} on Amazon DynamoDB.
 *
 * <p>Each aggregate type is stored in the layout its definition chooses: the journal + snapshot layout
 * (the default) in the journal and snapshot tables, or the tip layout in the tip table, all named by the
 * {@link StoreConfig} ({@code docs/layouts.md} describes both). Every request either
 * layout sends goes out with the AWS SDK's own retries switched off: esgen retries in one place, within
 * the config's {@link dev.esgen.runtime.config.RetryPolicy}, and reports each request's consumed capacity and
 * each failed attempt to the config's {@link dev.esgen.runtime.metrics.StoreListener}. Unless the config
 * switches on its {@link dev.esgen.runtime.config.StateCachePolicy state cache}, the only per-aggregate state
 * the store holds is which aggregate type claimed each stored name: a repository of a second type under a
 * name already claimed is refused with {@link DuplicateAggregateNameException}, since the two would share
 * keys. The store is safe to share between threads and repositories; it does not own the client and does not close it.
 *
 * <pre>{@code
 * DynamoDbClient client = DynamoDbClient.create();
 * EventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults());
 * BankAccountRepository accounts = new BankAccountRepository(store);
 * }</pre>
 */
public final class DynamoDbEventStore implements EventStore {

  static {
    StoreAccess.register(DynamoDbEventStore.class, store -> store.internals);
  }

  private final StoreParts parts;
  private final DynamoDbClient client;
  private final Internals internals;

  private DynamoDbEventStore(DynamoDbClient client, StoreConfig config) {
    this.parts = StoreParts.of(config);
    this.client = client;
    this.internals = new Internals(parts, client);
  }

  /** A store on {@code client} with {@code config}. */
  public static DynamoDbEventStore create(DynamoDbClient client, StoreConfig config) {
    return new DynamoDbEventStore(Objects.requireNonNull(client, "client"), Objects.requireNonNull(config, "config"));
  }

  /** The settings this store was created with. */
  public StoreConfig config() {
    return parts.config();
  }

  @Override
  public ObjectMapper objectMapper() {
    return parts.objectMapper();
  }

  /**
   * A {@link TableProvisioner} of this store's tables on the client the store was created with, so that a
   * setup of several stores on several accounts creates each store's tables where the store reads them.
   *
   * <pre>{@code
   * DynamoDbEventStore store = DynamoDbEventStore.create(client, config);
   * store.provisioner().createTablesIfMissing(BankAccountRepository.definition(store.objectMapper()));
   * }</pre>
   */
  public TableProvisioner provisioner() {
    return new TableProvisioner(client, parts.config());
  }

  /**
   * An asynchronous store on {@code asyncClient} that shares this store's config, listener, state cache
   * and aggregate name claims: synchronous and asynchronous repositories of one aggregate type then see
   * the same cached streams, and a name claimed by one type in either is refused to another type in both.
   * Both clients should reach the same DynamoDB tables; this store keeps using its own client.
   *
   * <pre>{@code
   * DynamoDbEventStore store = DynamoDbEventStore.create(client, config);
   * BankAccountRepository accounts = new BankAccountRepository(store);
   * BankAccountAsyncRepository asyncAccounts = new BankAccountAsyncRepository(store.withAsyncClient(asyncClient));
   * }</pre>
   */
  public AsyncEventStore withAsyncClient(DynamoDbAsyncClient asyncClient) {
    return new DynamoDbAsyncEventStore(Objects.requireNonNull(asyncClient, "asyncClient"), parts);
  }

  /** What repositories and the change feed need of the store, out of its public API (see {@link StoreAccess}). */
  private static final class Internals implements StoreInternals {

    private final StoreParts parts;
    private final DynamoDbClient sending;
    private final JournalLayout journal;
    private final TipLayout tip;

    Internals(StoreParts parts, DynamoDbClient client) {
      this.parts = parts;
      // Retries outside metering, so that every request sent again is counted and billed as such.
      this.sending = new RetryingDynamoDbClient(parts.recorder().meter(client), parts.budgets());
      this.journal = new JournalLayout(sending, parts.config(), parts.recorder());
      this.tip = new TipLayout(sending, parts.config(), parts.recorder());
    }

    /**
     * Compared by class name, not by class: a class reloaded by another class loader (a development
     * server's restart) is still the same aggregate type.
     */
    @Override
    public void claimName(AggregateDefinition<?, ?, ?> definition) {
      parts.claimName(definition);
    }

    @Override
    public StorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition) {
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
    public StoreConfig config() {
      return parts.config();
    }

    @Override
    public DynamoDbClient client() {
      return sending;
    }
  }
}
