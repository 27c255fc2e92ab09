package dev.esgen.testkit.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.AggregateNameClaims;
import dev.esgen.runtime.internal.AsyncStoreInternals;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryBudgets;
import dev.esgen.runtime.internal.storage.AsyncStorageLayout;
import dev.esgen.runtime.internal.storage.StorageLayout;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * An {@link EventStore} in the JVM's memory, for service tests: the generated repositories run on it
 * unchanged, with DynamoDB's storage contract and no DynamoDB. A fresh store per test class costs
 * nothing, and an append takes microseconds.
 *
 * <p>What it keeps of the contract (esgen's contract suite runs the same tests against it and against
 * DynamoDB Local, on both layouts):
 * <ul>
 *   <li>versions: every append is conditioned on the version it was loaded at and fails with
 *       {@link dev.esgen.runtime.error.VersionConflictException} (a create of an existing id with
 *       {@link dev.esgen.runtime.error.AggregateAlreadyExistsException}); its events, index values,
 *       reservations and command record are stored all at once or not at all;
 *   <li>idempotent commands: a command id is recorded with its append and a repeat is recognised;
 *   <li>unique values: {@link dev.esgen.runtime.error.DuplicateValueException} naming column, value and
 *       holder; lookups by unique and indexed columns, {@code listAll} and {@code findAll}, paged with
 *       the same cursors (and the same {@link dev.esgen.runtime.error.InvalidCursorException} for one of
 *       another listing) in the same order, ids compared by their UTF-8 bytes as DynamoDB compares keys;
 *   <li>events are kept in stored form: the generated codecs write every event and snapshot and read
 *       them back on every load, so a record Jackson cannot read back fails here as it would on DynamoDB;
 *       snapshots are taken when the layout would take them;
 *   <li>{@code events(id)} returns each event with its type name, metadata and the time of the store's
 *       clock ({@link StoreConfig#clock()}) at its append;
 *   <li>DynamoDB's limits, by the rules of the layout the aggregate's definition names: an item over
 *       400 KB fails with {@link dev.esgen.runtime.error.ItemTooLargeException}, an append needing more than
 *       100 actions or 4 MB in one transaction with
 *       {@link dev.esgen.runtime.error.TransactionTooLargeException}, before anything is stored; a snapshot
 *       too large to store is skipped and reported to the listener, as on DynamoDB, measured with everything
 *       the item keeps;
 *   <li>evolution: events are kept with their version and read through the upcasters, snapshots with their
 *       fingerprint; a snapshot of another fingerprint is ignored and the state folded from the events;
 *       {@link #seed} stores a stream as older code stored it, to test upcasters;
 *   <li>the change feed: {@link InMemoryFeed} delivers every append to the application's projections;
 *   <li>asynchronous repositories: {@link #async} serves them from the same streams.
 * </ul>
 *
 * <p>What it does not do, see {@code docs/testing.md}: no tables (nothing to provision, no
 * {@code MissingTableException}), no network failures, throttling or outcome-unknown writes, no request or
 * capacity figures (the listener hears every operation, with zero requests and units), older snapshots are
 * not kept, and its indexes are never behind: lookups that are eventually consistent on DynamoDB see
 * every completed append at once.
 *
 * <p>Thread-safe: an append's checks and writes run under one lock, so concurrent writers see the same
 * conflicts as on DynamoDB; codecs run outside it.
 *
 * <pre>{@code
 * MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T09:00:00Z"));
 * EventStore store = InMemoryEventStore.create(StoreConfig.defaults().withClock(clock));
 * BankAccountRepository accounts = new BankAccountRepository(store);
 * TransferService service = new TransferService(accounts, new TransferRepository(store), clock);
 * }</pre>
 */
public final class InMemoryEventStore implements EventStore {

  static {
    StoreAccess.register(InMemoryEventStore.class, store -> store.internals);
    StoreAccess.registerAsync(AsyncTwin.class, twin -> twin);
  }

  private final StoreConfig config;
  private final AggregateNameClaims claimedNames = new AggregateNameClaims();
  private final OperationRecorder recorder;
  private final MemoryLayout journal;
  private final MemoryLayout tip;
  private final StoredData data = new StoredData();
  private final StateCache stateCache;
  private final Internals internals = new Internals();
  private final AsyncEventStore async;

  private InMemoryEventStore(StoreConfig config) {
    this.config = config;
    this.stateCache = StateCache.of(config.stateCache(), config.clock());
    this.recorder = new OperationRecorder(config.listener(), new RetryBudgets(config.retryPolicy()));
    this.journal = new MemoryLayout(LayoutKind.JOURNAL, data, config.clock(), recorder);
    this.tip = new MemoryLayout(LayoutKind.TIP, data, config.clock(), recorder);
    this.async = new AsyncTwin();
  }

  /** An empty store with {@link StoreConfig#defaults()}: the UTC system clock, esgen's JSON mapper. */
  public static InMemoryEventStore create() {
    return create(StoreConfig.defaults());
  }

  /**
   * An empty store with {@code config}'s clock, mapper, retry policy, listener and state cache; its table
   * names mean nothing here.
   */
  public static InMemoryEventStore create(StoreConfig config) {
    return new InMemoryEventStore(Objects.requireNonNull(config, "config"));
  }

  /** The settings this store was created with. */
  public StoreConfig config() {
    return config;
  }

  @Override
  public ObjectMapper objectMapper() {
    return config.objectMapper();
  }

  /**
   * This store for asynchronous repositories ({@code FooAsyncRepository}): the same streams, index values,
   * cache and name claims, every call completed before it returns (its future is done, or failed with the
   * exception the synchronous repository would throw).
   *
   * <pre>{@code
   * InMemoryEventStore store = InMemoryEventStore.create(StoreConfig.defaults().withClock(clock));
   * BankAccountAsyncRepository accounts = new BankAccountAsyncRepository(store.async());
   * accounts.create(new AccountOpened(id, "Ann")).join();
   * assertEquals("Ann", new BankAccountRepository(store).load(id).owner());
   * }</pre>
   */
  public AsyncEventStore async() {
    return async;
  }

  /** What {@link #async} returns: this store's layouts, recorder, cache and claims behind the asynchronous API. */
  private final class AsyncTwin implements AsyncEventStore, AsyncStoreInternals {

    private final AsyncStorageLayout asyncJournal = new MemoryAsyncLayout(journal);
    private final AsyncStorageLayout asyncTip = new MemoryAsyncLayout(tip);

    @Override
    public AsyncStorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition) {
      return definition.layout() == LayoutKind.TIP ? asyncTip : asyncJournal;
    }

    @Override
    public ObjectMapper objectMapper() {
      return InMemoryEventStore.this.objectMapper();
    }

    @Override
    public void claimName(AggregateDefinition<?, ?, ?> definition) {
      internals.claimName(definition);
    }

    @Override
    public OperationRecorder recorder() {
      return recorder;
    }

    @Override
    public ReadConsistency readConsistency(String aggregateType) {
      return internals.readConsistency(aggregateType);
    }

    @Override
    public StateCache stateCache() {
      return stateCache;
    }

    /** Where a conflict's backoff resumes; nothing else runs on it, as reads and writes complete at once. */
    @Override
    public Executor executor() {
      return ForkJoinPool.commonPool();
    }

    @Override
    public String toString() {
      return InMemoryEventStore.this + ", asynchronous";
    }
  }

  /**
   * Stores the stream {@code id} of {@code definition}'s type as older code stored it: {@code events} in their
   * stored form, untouched by today's codec, in one append. Loads, {@code events(id)} and the
   * {@link InMemoryFeed} read them as they read anything stored, through the upcasters, so a test proves that
   * today's code reads what was stored years ago. The stream's version is 1 afterwards; it has no snapshot,
   * index values or unique reservations (run the repository's {@code reindex(id)} for those).
   *
   * <pre>{@code
   * store.seed(meters.definition(), id,
   *     new StoredEvent("installed", 1, "{\"id\":{\"value\":\"m-1\"}}"),
   *     new StoredEvent("reading-taken", 1, "{\"kwh\":3}"));
   * assertEquals(3_000, meters.load(id).wattHours());
   * }</pre>
   *
   * @throws IllegalArgumentException when no event is given
   * @throws dev.esgen.runtime.error.AggregateAlreadyExistsException when the stream exists: seeding writes
   *     history, and never behind an existing one
   */
  public <A, I, E> void seed(AggregateDefinition<A, I, E> definition, I id, StoredEvent... events) {
    Objects.requireNonNull(definition, "definition");
    if (events.length == 0) {
      throw new IllegalArgumentException(definition.name() + ": seed needs at least one stored event");
    }
    layoutFor(definition).seed(definition, definition.keys().idString(id), List.of(events));
  }

  /** Where {@code definition}'s streams are kept here. */
  MemoryLayout layoutFor(AggregateDefinition<?, ?, ?> definition) {
    return definition.layout() == LayoutKind.TIP ? tip : journal;
  }

  /** What this store holds, for its change feed. */
  StoredData data() {
    return data;
  }

  @Override
  public String toString() {
    return "InMemoryEventStore";
  }

  /** What repositories reach of this store, out of its public API (see {@link StoreAccess}). */
  private final class Internals implements StoreInternals {

    @Override
    public StorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition) {
      return InMemoryEventStore.this.layoutFor(definition);
    }

    @Override
    public OperationRecorder recorder() {
      return recorder;
    }

    /** As the config says, as on DynamoDB; every read here is strongly consistent whatever it says. */
    @Override
    public ReadConsistency readConsistency(String aggregateType) {
      return config.readConsistencyOf(aggregateType);
    }

    /**
     * The state cache the config switches on, as {@code DynamoDbEventStore} keeps it: a read that allows a
     * cached state gets the one this definition's code last read or wrote here, aged by the config's clock.
     */
    @Override
    public StateCache stateCache() {
      return stateCache;
    }

    @Override
    public void claimName(AggregateDefinition<?, ?, ?> definition) {
      claimedNames.claim(definition);
    }

    @Override
    public StoreConfig config() {
      return config;
    }

    /**
     * Always throws: this store sends no DynamoDB requests, so {@code ChangeFeed} needs a
     * {@code DynamoDbEventStore}; {@link InMemoryFeed} delivers this store's events to the same projections.
     */
    @Override
    public DynamoDbClient client() {
      throw new UnsupportedOperationException(
          "the in-memory store has no DynamoDB client: use InMemoryFeed instead of ChangeFeed, which needs a"
              + " DynamoDbEventStore");
    }
  }
}
