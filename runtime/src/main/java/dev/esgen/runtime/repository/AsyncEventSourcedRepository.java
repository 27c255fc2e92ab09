package dev.esgen.runtime.repository;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.error.ValueNotFoundException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.history.EventContext;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.AsyncStoreInternals;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.async.CompletableFutures;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.command.CommandAlreadyAppliedException;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryBudget;
import dev.esgen.runtime.internal.storage.AppendIds;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.AsyncStorageLayout;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The typed asynchronous repository API every generated {@code FooAsyncRepository} inherits (see
 * {@code @Aggregate(async = true)}): the operations of {@link EventSourcedRepository}, with the same
 * names, overloads and meaning, answered with {@link CompletableFuture}s over a
 * {@code DynamoDbAsyncClient}; all but {@code events} and the reindexing ones, for which
 * the synchronous repository remains (see {@code docs/async.md}). It shares with the synchronous repository
 * the codecs, the replay, the requests each layout sends, how failures are classified and retried within the store's
 * {@link dev.esgen.runtime.config.RetryPolicy}, how an append of unknown outcome is settled, command ids,
 * and (with a store made by {@link dev.esgen.runtime.DynamoDbEventStore#withAsyncClient}) the state cache.
 *
 * <p><b>No thread blocks.</b> Every request is sent through the asynchronous client, and every pause (a
 * retry after throttling, the backoff after a version conflict) is spent on a delayed executor, not in
 * {@code Thread.sleep}. A method returns its future at once; the operation continues on whichever thread
 * completes the SDK's futures, and so do {@code decide} functions of {@link #transact} and any callback a
 * caller chains onto the future: they must not block either (see {@code docs/async.md}).
 *
 * <p><b>Failures.</b> The methods never throw: every failure, bad input included (an empty event list, an
 * invalid command id, an item over DynamoDB's size limit), fails the returned future, and for bad input
 * nothing is sent or written. The failure is esgen's exception itself, never wrapped: what
 * {@code exceptionally} and {@code whenComplete} see on the returned future, and the cause of {@code get()}'s
 * {@link java.util.concurrent.ExecutionException}, is e.g. the {@link VersionConflictException}. A stage
 * chained after it ({@code thenCompose}, {@code thenAccept}, ...) completes with the JDK's
 * {@link java.util.concurrent.CompletionException} around it. The exceptions and what they say about what
 * is stored are those of {@link EventSourcedRepository}.
 *
 * <p><b>Contention.</b> A {@code transact} that loses a race makes this store's writers of the stream take
 * turns, as the synchronous one does, and in the same line as the synchronous writers: each then decides
 * on the state the one before left (in the state cache, or on a strongly consistent reload), so that they
 * stop colliding with each other. Waiting for a turn holds no thread: the writer that hands the turn on
 * completes a future, and the next one continues on the store's executor. With the state cache it
 * paces itself against other processes as the synchronous one does: a store that lost the stream to
 * another process lately leaves a gap before every few commands it decides on remembered state, and a
 * command that lost a quarter of its attempts waits patiently (see {@code docs/operations.md}).
 *
 * <p>Each operation is reported to the store's {@link dev.esgen.runtime.metrics.StoreListener} with its
 * requests, capacity and attempts, as the synchronous ones are.
 *
 * <pre>{@code
 * BankAccountAsyncRepository accounts = new BankAccountAsyncRepository(asyncStore);
 * accounts.create(new AccountOpened(id, "Ann", "ann@example.com", now))
 *     .thenCompose(opened -> accounts.transact(id, account -> account.deposit(500)))
 *     .thenAccept(deposited -> log.info("balance {}", deposited.state().balanceCents()))
 *     .exceptionally(failure -> {     // chained: a CompletionException around e.g. VersionConflictException
 *       log.warn("deposit failed", failure);
 *       return null;
 *     });
 * }</pre>
 *
 * @param <A> the aggregate type
 * @param <I> its id type
 * @param <E> the sealed root of its events
 */
public abstract class AsyncEventSourcedRepository<A, I, E> {

  /** How many index entries {@code findByX} of an {@code @Indexed} column reads per request, as the synchronous one. */
  private static final int FIND_PAGE_SIZE = 10;

  private final AsyncStoreInternals store;
  private final AggregateDefinition<A, I, E> definition;
  private final AsyncStorageLayout layout;

  /**
   * @throws IllegalArgumentException when {@code store} is not one of esgen's asynchronous stores
   * @throws dev.esgen.runtime.error.DuplicateAggregateNameException when {@code store} already serves
   *     another aggregate type under {@code definition}'s name
   */
  protected AsyncEventSourcedRepository(AsyncEventStore store, AggregateDefinition<A, I, E> definition) {
    this.store = internals(Objects.requireNonNull(store, "store"));
    this.definition = Objects.requireNonNull(definition, "definition");
    this.layout = this.store.layoutFor(definition);
    this.store.claimName(definition);
  }

  /** The definition of the aggregate type this repository stores. */
  public final AggregateDefinition<A, I, E> definition() {
    return definition;
  }

  /**
   * Starts a new stream with {@code event}, which must be the aggregate's creating event.
   *
   * @return the stream as stored; fails with {@link dev.esgen.runtime.error.AggregateAlreadyExistsException}
   *     when a stream with the new aggregate's id is already stored
   */
  public final CompletableFuture<Versioned<A>> create(E event) {
    // Not List.of: a null event must fail the future, not throw here.
    return create(Collections.singletonList(event));
  }

  /**
   * Starts a new stream with {@code events}: the creating event first, then events applied to it, all
   * stored atomically. An empty list fails the future with {@link IllegalArgumentException}.
   *
   * @return fails with {@link dev.esgen.runtime.error.AggregateAlreadyExistsException} when a stream with
   *     the new aggregate's id is already stored
   */
  public final CompletableFuture<Versioned<A>> create(List<? extends E> events) {
    return create(AppendOptions.none(), events);
  }

  /**
   * Starts a new stream with {@code events} as the command {@code commandId}: a repeat of a command id
   * already applied to the new aggregate's stream completes with the stream as stored now and writes
   * nothing, also after a restart or an {@link dev.esgen.runtime.error.AppendOutcomeUnknownException}.
   *
   * <pre>{@code
   * accounts.create("open-" + requestId, List.of(new AccountOpened(id, "Ann", "ann@example.com", now)));
   * }</pre>
   *
   * @return fails with {@link dev.esgen.runtime.error.InvalidCommandIdException} when {@code commandId} is
   *     null, empty or over {@value CommandRecords#MAX_COMMAND_ID_BYTES} bytes
   */
  public final CompletableFuture<Versioned<A>> create(String commandId, List<? extends E> events) {
    return run("create", operation -> createStream(
        events, AppendOptions.command(CommandRecords.check(definition.name(), commandId)), operation));
  }

  /**
   * Starts a new stream with {@code events}, with the command id and metadata of {@code options}; see
   * {@link #create(String, List)} for what a command id does. Metadata missing from {@code options} is
   * taken from the calling thread's {@link EventContext} when this method is called.
   *
   * <pre>{@code
   * accounts.create(AppendOptions.metadata(EventMetadata.none().withActor("onboarding")), List.of(opened));
   * }</pre>
   */
  public final CompletableFuture<Versioned<A>> create(AppendOptions options, List<? extends E> events) {
    return run("create", operation -> createStream(events, checked(options), operation));
  }

  /** Appends {@code event} if the stream is still at {@code expectedVersion}; see {@link #append(Object, long, List)}. */
  public final CompletableFuture<Versioned<A>> append(I id, long expectedVersion, E event) {
    return append(id, expectedVersion, Collections.singletonList(event));
  }

  /**
   * Appends {@code events} atomically if the stream is still at {@code expectedVersion}, as
   * {@link EventSourcedRepository#append(Object, long, List)} does: loaded first with a strongly
   * consistent read unless the state cache holds the stream at exactly that version and {@code events}
   * is not empty.
   *
   * @return fails with {@link AggregateNotFoundException} when no stream is stored under {@code id}, and
   *     with {@link VersionConflictException} when the stream is at another version (nothing is written)
   */
  public final CompletableFuture<Versioned<A>> append(I id, long expectedVersion, List<? extends E> events) {
    return run("append", operation -> appendAtVersion(id, expectedVersion, AppendOptions.none(),
        metadata(AppendOptions.none()), Arguments.events(definition, events), operation));
  }

  /**
   * Appends {@code events} as the command {@code commandId}, if the stream is still at
   * {@code expectedVersion}; a repeat of a command id already applied to this stream completes with the
   * stream as stored now and writes nothing.
   *
   * <pre>{@code
   * accounts.loadVersioned(id).thenCompose(account ->
   *     accounts.append(id, account.version(), "deposit-" + requestId, account.state().deposit(500)));
   * }</pre>
   */
  public final CompletableFuture<Versioned<A>> append(
      I id, long expectedVersion, String commandId, List<? extends E> events) {
    return run("append", operation -> appendCommand(id, expectedVersion,
        AppendOptions.command(CommandRecords.check(definition.name(), commandId)),
        Arguments.events(definition, events), operation));
  }

  /**
   * Appends {@code events} if the stream is still at {@code expectedVersion}, with the command id and
   * metadata of {@code options}; see {@link #append(Object, long, String, List)} for what a command id does.
   */
  public final CompletableFuture<Versioned<A>> append(
      I id, long expectedVersion, AppendOptions options, List<? extends E> events) {
    return run("append", operation -> {
      // The events before the options, as the synchronous repository checks them.
      Arguments.events(definition, events);
      return appendCommand(id, expectedVersion, checked(options), events, operation);
    });
  }

  /**
   * Appends {@code events} atomically to the stream as {@code loaded} saw it, if it is still at that
   * version: with a {@code Versioned} this repository (or a synchronous one of its definition) returned, a
   * single write request; with any other, the stream is loaded first. An empty list writes nothing.
   *
   * <pre>{@code
   * accounts.loadVersioned(id)
   *     .thenCompose(account -> accounts.append(account, account.state().deposit(500)));   // one request
   * }</pre>
   *
   * @return fails with {@link VersionConflictException} when another writer appended since {@code loaded};
   *     nothing is written
   */
  public final CompletableFuture<Versioned<A>> append(Versioned<A> loaded, List<? extends E> events) {
    return run("append", operation -> {
      I id = definition.keys().idOf(Arguments.required(definition, loaded, "the loaded aggregate is null").state());
      Arguments.events(definition, events);
      EventMetadata metadata = metadata(AppendOptions.none());
      Optional<LoadedStream<A>> stream = loaded.streamFor(definition);
      return stream.isPresent()
          ? appendTo(id, stream.get(), events, AppendOptions.none(), metadata, operation)
          : appendAtVersion(id, loaded.version(), AppendOptions.none(), metadata, events, operation);
    });
  }

  /**
   * Loads the aggregate, asks {@code decide} for new events and appends them at the loaded version; on a
   * version conflict backs off (on the delayed executor, no thread waits), then decides again on the
   * state the winner left in the store's state cache or on a strongly consistent reload, as the store's
   * retry policy allows. As with {@link EventSourcedRepository#transact(Object, Function)}, {@code decide}
   * may run more than once and must have no side effects beyond returning events; here it also runs on
   * whichever thread completed the load, so it must not block. An empty decision writes nothing.
   *
   * @return fails with {@link AggregateNotFoundException} when no stream is stored under {@code id}, with
   *     {@link VersionConflictException} after the last attempt lost to other writers, and with what
   *     {@code decide} threw when it rejected the command
   */
  public final CompletableFuture<Versioned<A>> transact(I id, Function<? super A, ? extends List<? extends E>> decide) {
    return transact(id, AppendOptions.none(), decide);
  }

  /**
   * As {@link #transact(Object, Function)}, as the idempotent command {@code commandId}: a repeat of a
   * command id already applied to this stream completes with the stream as stored now, without calling
   * {@code decide} and without appending; see {@link EventSourcedRepository#transact(Object, String, Function)}.
   *
   * <pre>{@code
   * accounts.transact(id, "deposit-" + requestId, account -> account.deposit(500));
   * }</pre>
   */
  public final CompletableFuture<Versioned<A>> transact(
      I id, String commandId, Function<? super A, ? extends List<? extends E>> decide) {
    return run("transact", operation -> transactCommand(id,
        AppendOptions.command(CommandRecords.check(definition.name(), commandId)),
        Arguments.required(definition, decide, "the decide function is null"), operation));
  }

  /**
   * As {@link #transact(Object, Function)}, with the command id and metadata of {@code options}; metadata
   * missing from {@code options} is taken from the calling thread's {@link EventContext} when this method
   * is called, not from the thread that later appends.
   *
   * <pre>{@code
   * accounts.transact(id, AppendOptions.command("deposit-" + requestId)
   *     .withMetadata(EventMetadata.none().withActor("teller-7")), account -> account.deposit(500));
   * }</pre>
   */
  public final CompletableFuture<Versioned<A>> transact(
      I id, AppendOptions options, Function<? super A, ? extends List<? extends E>> decide) {
    return run("transact", operation -> transactCommand(
        id, checked(options), Arguments.required(definition, decide, "the decide function is null"), operation));
  }

  /** The aggregate stored under {@code id}, if any, read as this type's reads default. */
  public final CompletableFuture<Optional<A>> findById(I id) {
    return findById(id, ReadOptions.defaults());
  }

  /**
   * The aggregate stored under {@code id}, if any, read as {@code options} say.
   *
   * <pre>{@code
   * accounts.findById(id, ReadOptions.eventual()).thenAccept(account -> account.ifPresent(this::show));
   * }</pre>
   */
  public final CompletableFuture<Optional<A>> findById(I id, ReadOptions options) {
    return run("findById", operation -> read(id, options, operation).thenApply(found -> found.map(LoadedStream::state)));
  }

  /**
   * The aggregate stored under {@code id}, read as this type's reads default.
   *
   * @return fails with {@link AggregateNotFoundException} when there is none
   */
  public final CompletableFuture<A> load(I id) {
    return load(id, ReadOptions.defaults());
  }

  /**
   * The aggregate stored under {@code id}, read as {@code options} say: e.g. eventually consistent for
   * half the read units, or from the store's state cache without a request. A read with a state cache
   * folds on from the state it remembers, reading only what was appended since.
   *
   * <pre>{@code
   * accounts.load(id, ReadOptions.cachedWithin(Duration.ofSeconds(10))).thenAccept(this::show);
   * }</pre>
   *
   * @return fails with {@link AggregateNotFoundException} when there is none
   */
  public final CompletableFuture<A> load(I id, ReadOptions options) {
    return run("load", operation -> read(id, options, operation).thenApply(found -> existing(id, found).state()));
  }

  /**
   * The aggregate stored under {@code id} with its version, for a later append, read as this type's reads
   * default.
   *
   * @return fails with {@link AggregateNotFoundException} when there is none
   */
  public final CompletableFuture<Versioned<A>> loadVersioned(I id) {
    return loadVersioned(id, ReadOptions.defaults());
  }

  /**
   * The aggregate stored under {@code id} with its version, read as {@code options} say. A version read
   * eventually consistent or from the cache may be behind; an append on it then fails with
   * {@link VersionConflictException} and writes nothing.
   *
   * <pre>{@code
   * accounts.loadVersioned(id, ReadOptions.eventual())
   *     .thenCompose(account -> accounts.append(account, account.state().deposit(500)));
   * }</pre>
   *
   * @return fails with {@link AggregateNotFoundException} when there is none
   */
  public final CompletableFuture<Versioned<A>> loadVersioned(I id, ReadOptions options) {
    return run("loadVersioned", operation ->
        read(id, options, operation).thenApply(found -> versioned(existing(id, found))));
  }

  /** The aggregate stored under {@code id} with its version and last seq_nr, if any, read as this type's reads default. */
  public final CompletableFuture<Optional<Versioned<A>>> findVersioned(I id) {
    return findVersioned(id, ReadOptions.defaults());
  }

  /**
   * The aggregate stored under {@code id} with its version and last seq_nr, if any, read as
   * {@code options} say.
   *
   * <pre>{@code
   * accounts.findVersioned(id, ReadOptions.strong()).thenAccept(account -> ...);
   * }</pre>
   */
  public final CompletableFuture<Optional<Versioned<A>>> findVersioned(I id, ReadOptions options) {
    return run("findVersioned", operation ->
        read(id, options, operation).thenApply(found -> found.map(this::versioned)));
  }

  /**
   * The aggregates stored under {@code ids}, read as this type's reads default in batches (a
   * {@code BatchGetItem} per 100 ids); ids with no aggregate are left out. The map iterates in the order
   * of {@code ids}.
   */
  public final CompletableFuture<Map<I, A>> findAll(Collection<I> ids) {
    return findAll(ids, ReadOptions.defaults());
  }

  /**
   * The aggregates stored under {@code ids}, read as {@code options} say: those the store's state cache
   * holds young enough come from it, the others from DynamoDB in batches, and the cache remembers those.
   * Ids with no aggregate are left out; the map iterates in the order of {@code ids}.
   *
   * <pre>{@code
   * accounts.findAll(ids, ReadOptions.eventual()).thenAccept(found -> found.values().forEach(this::show));
   * }</pre>
   */
  public final CompletableFuture<Map<I, A>> findAll(Collection<I> ids, ReadOptions options) {
    return run("findAll", operation -> {
      Arguments.ids(definition, ids);
      Arguments.required(definition, options, "the read options are null");
      Map<I, LoadedStream<A>> cached = new LinkedHashMap<>();
      List<I> missing = new ArrayList<>();
      for (I id : ids) {
        Optional<LoadedStream<A>> hit = options.maxCachedAge().isZero()
            ? Optional.empty()
            : cache().find(definition, idString(id), options.maxCachedAge());
        if (hit.isPresent()) {
          cached.put(id, hit.get());
        } else {
          missing.add(id);
        }
      }
      long since = cache().now();
      CompletableFuture<Map<I, LoadedStream<A>>> loaded = missing.isEmpty()
          ? CompletableFuture.completedFuture(Map.of())
          : layout.loadAll(definition, missing, consistency(options), cache().findEach(definition, missing), operation);
      return loaded.thenApply(read -> {
        read.forEach((id, stream) -> cache().remember(definition, idString(id), stream, since));
        Map<I, A> found = new LinkedHashMap<>();
        for (I id : ids) {
          LoadedStream<A> stream = cached.containsKey(id) ? cached.get(id) : read.get(id);
          if (stream != null) {
            found.put(id, stream.state());
          }
        }
        return found;
      });
    });
  }

  /**
   * A page of every aggregate of this type, each read strongly consistent, in the storage layout's stable
   * order, as {@link EventSourcedRepository#listAll} lists them (on the tip layout from an eventually
   * consistent listing index).
   *
   * <pre>{@code
   * accounts.listAll(PageRequest.first(100)).thenAccept(page -> page.items().forEach(this::export));
   * }</pre>
   */
  public final CompletableFuture<Page<A>> listAll(PageRequest page) {
    return run("listAll", operation -> layout.listAll(
            definition, Arguments.required(definition, page, "the page request is null"), operation)
        .thenApply(listed -> listed.map(LoadedStream::state)));
  }

  /**
   * The aggregate holding {@code value} in the {@code @Unique} column {@code column}, found through the
   * value's reservation, read as {@link EventSourcedRepository#findByUnique} reads it. Generated
   * {@code findByX} methods call this. A null value fails the future with {@link IllegalArgumentException}.
   *
   * @param value the value's stored string form ({@link dev.esgen.runtime.index.IndexValues}); it is
   *     normalised as the column says
   */
  protected final CompletableFuture<Optional<A>> findByUnique(IndexColumn column, String value) {
    return run("findBy" + column.name(), operation -> {
      IndexLookups.requireValue(definition, column, value);
      if (!IndexKeys.fits(definition.name(), column, value)) {
        return CompletableFuture.completedFuture(Optional.empty());
      }
      ReadConsistency consistency = consistency(ReadOptions.defaults());
      return layout.findUnique(definition, column, value, consistency, operation).thenCompose(holder -> {
        if (holder.isEmpty()) {
          return CompletableFuture.completedFuture(Optional.empty());
        }
        String wanted = column.normalize(value);
        return loadStored(holder.get(), consistency, operation).thenApply(loaded -> loaded
            .map(LoadedStream::state)
            .filter(state -> wanted.equals(IndexLookups.normalizedValue(definition, state, column))));
      });
    });
  }

  /**
   * The aggregate holding {@code value} in the {@code @Unique} column {@code column}, as
   * {@link #findByUnique}.
   *
   * @return fails with {@link ValueNotFoundException} when no aggregate holds it
   */
  protected final CompletableFuture<A> loadByUnique(IndexColumn column, String value) {
    return CompletableFutures.unwrapped(findByUnique(column, value).thenApply(found ->
        found.orElseThrow(() -> new ValueNotFoundException(definition.name(), column.name(), value))));
  }

  /**
   * The aggregate with the smallest id string (in UTF-8 byte order) among those whose {@code @Indexed}
   * column {@code column} holds {@code value}, found as {@link EventSourcedRepository#findByIndex} finds it:
   * through a global secondary index (eventually consistent), every candidate loaded and returned only if it
   * still holds the value.
   */
  protected final CompletableFuture<Optional<A>> findByIndex(IndexColumn column, String value) {
    return run("findBy" + column.name(), operation -> {
      IndexLookups.requireValue(definition, column, value);
      return firstIndexed(column, value, PageRequest.first(FIND_PAGE_SIZE), operation);
    });
  }

  /**
   * As {@link #findByIndex}.
   *
   * @return fails with {@link ValueNotFoundException} when no aggregate holds {@code value}
   */
  protected final CompletableFuture<A> loadByIndex(IndexColumn column, String value) {
    return CompletableFutures.unwrapped(findByIndex(column, value).thenApply(found ->
        found.orElseThrow(() -> new ValueNotFoundException(definition.name(), column.name(), value))));
  }

  /**
   * A page of the aggregates whose {@code @Indexed} column {@code column} holds {@code value}, ordered by
   * id string, as {@link EventSourcedRepository#listByIndex} reads it: a page may hold fewer than
   * {@code page.size()} items while more follow.
   */
  protected final CompletableFuture<Page<A>> listByIndex(IndexColumn column, String value, PageRequest page) {
    return run("listBy" + column.name(), operation -> {
      IndexLookups.requireValue(definition, column, value);
      Arguments.required(definition, page, "the page request is null");
      return indexedPage(column, value, page, operation);
    });
  }

  private CompletableFuture<Optional<A>> firstIndexed(
      IndexColumn column, String value, PageRequest request, OperationRecorder.Operation operation) {
    return indexedPage(column, value, request, operation).thenCompose(page -> {
      if (!page.items().isEmpty()) {
        return CompletableFuture.completedFuture(Optional.of(page.items().get(0)));
      }
      if (page.nextCursor().isEmpty()) {
        return CompletableFuture.completedFuture(Optional.empty());
      }
      return firstIndexed(column, value, PageRequest.after(page.nextCursor().get(), FIND_PAGE_SIZE), operation);
    });
  }

  private CompletableFuture<Page<A>> indexedPage(
      IndexColumn column, String value, PageRequest page, OperationRecorder.Operation operation) {
    if (!IndexKeys.fits(definition.name(), column, value)) {
      return CompletableFuture.completedFuture(IndexLookups.noHolders(definition, column, value, page));
    }
    return layout.findIndexed(definition, column, value, page, operation).thenCompose(ids -> layout
        .loadAll(definition, ids.items(), consistency(ReadOptions.defaults()), cache().findEach(definition, ids.items()),
            operation)
        .thenApply(loaded -> {
          List<A> items = new ArrayList<>();
          for (LoadedStream<A> stream : loaded.values()) {
            if (value.equals(definition.indexColumns().values(stream.state()).get(column.name()))) {
              items.add(stream.state());
            }
          }
          return new Page<>(items, ids.nextCursor());
        }));
  }

  private CompletableFuture<Versioned<A>> createStream(
      List<? extends E> events, AppendOptions options, OperationRecorder.Operation operation) {
    Arguments.events(definition, events);
    if (events.isEmpty()) {
      throw new IllegalArgumentException(definition.name() + ": create needs at least the creating event");
    }
    EventMetadata metadata = metadata(options);
    A created = definition.replay().create(events.get(0));
    I id = definition.keys().idOf(created);
    return alreadyApplied(id, options.commandId(), operation).thenCompose(repeat -> {
      if (repeat.isPresent()) {
        return CompletableFuture.completedFuture(repeat.get());
      }
      A state = fold(created, events.subList(1, events.size()));
      operation.attempt();
      return write(new AppendRequest<>(definition, id, idString(id), Optional.empty(), List.copyOf(events), state,
          AppendIds.next(), options.commandId(), metadata), operation);
    });
  }

  private CompletableFuture<Versioned<A>> appendCommand(I id, long expectedVersion, AppendOptions options,
      List<? extends E> events, OperationRecorder.Operation operation) {
    EventMetadata metadata = metadata(options);
    return alreadyApplied(id, options.commandId(), operation).thenCompose(repeat -> repeat.isPresent()
        ? CompletableFuture.completedFuture(repeat.get())
        : appendAtVersion(id, expectedVersion, options, metadata, events, operation));
  }

  private CompletableFuture<Versioned<A>> appendAtVersion(I id, long expectedVersion, AppendOptions options,
      EventMetadata metadata, List<? extends E> events, OperationRecorder.Operation operation) {
    // As in the synchronous repository: a cached stream at exactly that version is what a load would return
    // if no one wrote since; if someone did, DynamoDB refuses the conditioned append. An empty append sends
    // nothing DynamoDB could refuse, so only a load checks its version.
    Optional<LoadedStream<A>> cached = cache().find(definition, idString(id))
        .filter(stream -> stream.version() == expectedVersion && !events.isEmpty());
    CompletableFuture<LoadedStream<A>> current = cached.isPresent()
        ? CompletableFuture.completedFuture(cached.get())
        : loadExisting(id, operation);
    return current.thenCompose(stream -> {
      if (stream.version() == expectedVersion) {
        return appendTo(id, stream, events, options, metadata, operation);
      }
      // As in the synchronous repository: a concurrent try of the same command may have moved the stream.
      return alreadyApplied(id, options.commandId(), operation).thenApply(repeat -> repeat.orElseThrow(() ->
          new VersionConflictException(
              definition.name(), idString(id), expectedVersion, OptionalLong.of(stream.version()), 1)));
    });
  }

  private CompletableFuture<Versioned<A>> transactCommand(I id, AppendOptions options,
      Function<? super A, ? extends List<? extends E>> decide, OperationRecorder.Operation operation) {
    EventMetadata metadata = metadata(options);
    return alreadyApplied(id, options.commandId(), operation).thenCompose(repeat -> {
      if (repeat.isPresent()) {
        return CompletableFuture.completedFuture(repeat.get());
      }
      Decision<A, I, E> decision = new Decision<>(id, idString(id), options, metadata, decide);
      // As in the synchronous repository: on a stream this store's writers contend for, they write in turn
      // rather than collide, and with the state cache a store that lost the stream to another process
      // lately leaves that process a gap before every few commands (ContentionPacing). Waiting for the
      // turn holds no thread: the turn hands itself on through the store's executor.
      RetryBudget budget = operation.budget();
      return budget.awaitTurnAsync(definition.name(), decision.aid(), !cache().enabled(), store.executor())
          .thenCompose(inTurn -> decideFirst(decision, operation))
          .whenComplete((written, failure) -> budget.releaseTurn());
    });
  }

  /** The first round of a {@code transact}: on the cached stream, else on one loaded for the decision. */
  private CompletableFuture<Versioned<A>> decideFirst(
      Decision<A, I, E> decision, OperationRecorder.Operation operation) {
    Optional<LoadedStream<A>> cached = cache().find(definition, decision.aid());
    boolean confirmed = cached.isEmpty() && consistency(ReadOptions.defaults()) == ReadConsistency.STRONG;
    CompletableFuture<LoadedStream<A>> first = cached.isPresent()
        ? CompletableFuture.completedFuture(cached.get())
        : loadForDecision(decision.id(), operation);
    return first.thenCompose(current -> decideAndAppend(decision, current, confirmed, operation));
  }

  /** What one {@code transact} decides with, the same on every round. */
  private record Decision<A, I, E>(I id, String aid, AppendOptions options, EventMetadata metadata,
      Function<? super A, ? extends List<? extends E>> decide) {}

  /**
   * One round of the transact loop of {@link EventSourcedRepository}, on {@code current}: the same rules
   * for when a decision that writes nothing must be confirmed by a strongly consistent read, and the same
   * retry budget and turns for conflicts, but the wait in line and the pause after a conflict hold no
   * thread: they are spent on the store's executor.
   */
  private CompletableFuture<Versioned<A>> decideAndAppend(Decision<A, I, E> decision, LoadedStream<A> current,
      boolean confirmed, OperationRecorder.Operation operation) {
    I id = decision.id();
    List<? extends E> events;
    A decided;
    try {
      events = decision.decide().apply(current.state());
      // As in the synchronous repository: the handlers run as part of the decision; a null list is refused
      // below, at once.
      decided = events == null ? null : fold(current.state(), events);
    } catch (RuntimeException rejected) {
      if (confirmed) {
        throw rejected;
      }
      return loadExisting(id, operation).thenCompose(stored -> {
        if (stored.version() == current.version()) {
          throw rejected;
        }
        return decideAndAppend(decision, stored, true, operation);
      });
    }
    Arguments.required(definition, events, "the decision returned null; return List.of() to append nothing");
    if (events.isEmpty()) {
      if (confirmed) {
        return CompletableFuture.completedFuture(versioned(current));
      }
      return loadExisting(id, operation).thenCompose(stored -> stored.version() == current.version()
          ? CompletableFuture.completedFuture(versioned(stored))
          : decideAndAppend(decision, stored, true, operation));
    }
    return appendFolded(id, current, events, decided, decision.options(), decision.metadata(), operation)
        .handle((written, failure) -> {
          if (failure == null) {
            operation.budget().wrote(definition.name(), decision.aid());
            return CompletableFuture.completedFuture(written);
          }
          Throwable cause = CompletableFutures.unwrap(failure);
          if (!(cause instanceof VersionConflictException conflict)) {
            return CompletableFuture.<Versioned<A>>failedFuture(cause);
          }
          operation.conflict(conflict);
          long refused = current.version();
          // As in the synchronous repository: with the cache, a refused write that finds no newer version
          // remembered lost to another process.
          boolean toAnotherProcess =
              cache().enabled() && cache().findNewerThan(definition, decision.aid(), refused).isEmpty();
          return operation.budget()
              .retryConflictAsync(definition.name(), decision.aid(), conflict, toAnotherProcess, store.executor())
              .thenCompose(again -> {
                if (!again) {
                  return CompletableFuture.<Versioned<A>>failedFuture(new VersionConflictException(
                      definition.name(), decision.aid(), conflict.expectedVersion(), conflict.actualVersion(),
                      operation.budget().failedAttempts(), conflict));
                }
                // The winner may be a writer of this process, whose stream the cache holds: no reload then.
                Optional<LoadedStream<A>> newer = cache().findNewerThan(definition, decision.aid(), refused);
                CompletableFuture<LoadedStream<A>> next = newer.isPresent()
                    ? CompletableFuture.completedFuture(newer.get())
                    : reloadAfterConflict(id, current, operation);
                return next.thenCompose(stream -> decideAndAppend(decision, stream, newer.isEmpty(), operation));
              });
        })
        .thenCompose(next -> next);
  }

  /** As the synchronous repository's: an eventually consistent read that finds nothing is confirmed strongly. */
  private CompletableFuture<LoadedStream<A>> loadForDecision(I id, OperationRecorder.Operation operation) {
    ReadConsistency consistency = consistency(ReadOptions.defaults());
    if (consistency == ReadConsistency.STRONG) {
      return loadExisting(id, operation);
    }
    long since = cache().now();
    return loadStored(id, consistency, operation).thenCompose(loaded -> {
      if (loaded.isEmpty()) {
        return loadExisting(id, operation);
      }
      cache().remember(definition, idString(id), loaded.get(), since);
      return CompletableFuture.completedFuture(loaded.get());
    });
  }

  private CompletableFuture<Versioned<A>> appendTo(I id, LoadedStream<A> current, List<? extends E> events,
      AppendOptions options, EventMetadata metadata, OperationRecorder.Operation operation) {
    if (events.isEmpty()) {
      return CompletableFuture.completedFuture(versioned(current));
    }
    return appendFolded(id, current, events, fold(current.state(), events), options, metadata, operation);
  }

  /** Appends {@code events} to {@code current}, whose state they fold into {@code state}. */
  private CompletableFuture<Versioned<A>> appendFolded(I id, LoadedStream<A> current, List<? extends E> events,
      A state, AppendOptions options, EventMetadata metadata, OperationRecorder.Operation operation) {
    operation.attempt();
    return write(new AppendRequest<>(definition, id, idString(id), Optional.of(current), List.copyOf(events), state,
        AppendIds.next(), options.commandId(), metadata), operation);
  }

  /**
   * Appends {@code request}, as the synchronous repository's {@code write}: a concurrent try of the same
   * command that won answers with the stored stream, also when only the command record tells so after the
   * append lost its version; the stream as stored is remembered in the cache, and any failure makes the
   * cache forget the stream it built on.
   */
  private CompletableFuture<Versioned<A>> write(AppendRequest<A, I, E> request, OperationRecorder.Operation operation) {
    String aid = request.aggregateId();
    if (operation.cancelled()) {
      // Its caller gave the command up before this write: it is not sent. One sent before goes its way.
      return CompletableFuture.failedFuture(new CancellationException(
          definition.name() + " " + aid + ": the caller cancelled the command; this append was not sent"));
    }
    long since = cache().now();
    return CompletableFutures.start(() -> layout.append(request, operation))
        .handle((stored, failure) -> {
          if (failure == null) {
            cache().remember(definition, aid, stored, since);
            return CompletableFuture.completedFuture(versioned(stored));
          }
          Throwable cause = CompletableFutures.unwrap(failure);
          if (cause instanceof CommandAlreadyAppliedException) {
            return loadExisting(request.id(), operation).thenApply(this::versioned);
          }
          cache().forgetUpTo(definition, aid, request.expectedVersion());
          if (cause instanceof VersionConflictException) {   // AggregateAlreadyExistsException too
            return alreadyApplied(request.id(), request.commandId(), operation).thenApply(repeat -> repeat
                .orElseThrow(() -> (RuntimeException) cause));
          }
          return CompletableFuture.<Versioned<A>>failedFuture(cause);
        })
        .thenCompose(next -> next);
  }

  /** The stream as stored now, when the command {@code commandId}, if any, was already applied to it. */
  private CompletableFuture<Optional<Versioned<A>>> alreadyApplied(
      I id, Optional<String> commandId, OperationRecorder.Operation operation) {
    if (commandId.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return layout.findCommand(definition, id, commandId.get(), operation).thenCompose(found -> found.isEmpty()
        ? CompletableFuture.completedFuture(Optional.<Versioned<A>>empty())
        : loadExisting(id, operation).thenApply(stream -> Optional.of(versioned(stream))));
  }

  /** The stream as stored now: a strongly consistent load, remembered in the cache. */
  private CompletableFuture<LoadedStream<A>> loadExisting(I id, OperationRecorder.Operation operation) {
    return loadExisting(id, Optional.empty(), operation);
  }

  /**
   * As the synchronous repository's: the stream as stored now after an append on {@code refused} lost its
   * version, folded on from {@code refused} (which the refusal made the cache drop) when the cache is on.
   */
  private CompletableFuture<LoadedStream<A>> reloadAfterConflict(
      I id, LoadedStream<A> refused, OperationRecorder.Operation operation) {
    return loadExisting(id, Optional.of(refused), operation);
  }

  /** As the synchronous repository's: folded on from what the cache remembers, or else {@code fallback}. */
  private CompletableFuture<LoadedStream<A>> loadExisting(
      I id, Optional<LoadedStream<A>> fallback, OperationRecorder.Operation operation) {
    long since = cache().now();
    Optional<LoadedStream<A>> remembered = cache().findById(definition, id);
    Optional<LoadedStream<A>> start = remembered.isEmpty() && cache().enabled() ? fallback : remembered;
    return layout.load(definition, id, ReadConsistency.STRONG, start, operation).thenApply(found -> {
      LoadedStream<A> loaded = existing(id, found);
      cache().remember(definition, idString(id), loaded, since);
      return loaded;
    });
  }

  /** As the synchronous repository's: folded on from what the cache remembers where that saves reading. */
  private CompletableFuture<Optional<LoadedStream<A>>> loadStored(
      I id, ReadConsistency consistency, OperationRecorder.Operation operation) {
    Optional<LoadedStream<A>> remembered = cache().findById(definition, id);
    return layout.load(definition, id, consistency, remembered, operation);
  }

  /** The stream read as {@code options} say: from the cache if they allow and it has it, else loaded and remembered. */
  private CompletableFuture<Optional<LoadedStream<A>>> read(
      I id, ReadOptions options, OperationRecorder.Operation operation) {
    Arguments.required(definition, options, "the read options are null");
    if (!options.maxCachedAge().isZero()) {
      Optional<LoadedStream<A>> cached = cache().find(definition, idString(id), options.maxCachedAge());
      if (cached.isPresent()) {
        return CompletableFuture.completedFuture(cached);
      }
    }
    long since = cache().now();
    return loadStored(id, consistency(options), operation).thenApply(loaded -> {
      loaded.ifPresent(stream -> cache().remember(definition, idString(id), stream, since));
      return loaded;
    });
  }

  /**
   * Runs {@code body} as one operation: its retry budget and measurements travel with it, it is reported
   * to the listener when it ends (before the caller's future completes, so a caller sees it reported),
   * and the future the caller gets fails with the exception itself. Whatever {@code body} throws before
   * its first request fails the future too.
   */
  private <T> CompletableFuture<T> run(
      String operationName, Function<OperationRecorder.Operation, CompletableFuture<T>> body) {
    OperationRecorder.Operation operation = store.recorder().begin(definition.name(), operationName);
    CompletableFuture<T> result = new CompletableFuture<>();
    CompletableFuture<T> running = CompletableFutures.start(() -> body.apply(operation));
    running.whenComplete((value, failure) -> {
      Throwable cause = failure == null ? null : CompletableFutures.unwrap(failure);
      try {
        operation.end(cause == null ? null
            : cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause));
      } catch (Throwable reporting) {
        // The listener's exceptions are logged and ignored; an Error escapes, as it escapes a synchronous call.
        // Thrown here, it would be lost with the caller's future never completed.
        result.completeExceptionally(reporting);
        return;
      }
      if (cause == null) {
        result.complete(value);
      } else {
        result.completeExceptionally(cause);
      }
    });
    // A caller who completes the future before the operation did (cancel, orTimeout) gives the command up:
    // no further write is sent for it (see write).
    result.whenComplete((value, failure) -> {
      if (!running.isDone()) {
        operation.cancel();
      }
    });
    // Not a dependent stage of the body's future: one would fail with a CompletionException around the cause.
    return result;
  }

  private static AsyncStoreInternals internals(AsyncEventStore store) {
    return StoreAccess.internals(store).orElseThrow(() -> new IllegalArgumentException(store.getClass().getName()
        + " is not a store esgen made: create one with DynamoDbAsyncEventStore.create(client, config) or"
        + " DynamoDbEventStore#withAsyncClient"));
  }

  /** The metadata to store: the options', completed from the calling thread's context. */
  private static EventMetadata metadata(AppendOptions options) {
    return options.metadata().orElse(EventContext.current());
  }

  private LoadedStream<A> existing(I id, Optional<LoadedStream<A>> stream) {
    return stream.orElseThrow(() -> new AggregateNotFoundException(definition.name(), idString(id)));
  }

  /** {@code options}, checked for this aggregate type. */
  private AppendOptions checked(AppendOptions options) {
    return Arguments.required(definition, options, "the append options are null").checked(definition.name());
  }

  private ReadConsistency consistency(ReadOptions options) {
    return options.consistency().orElseGet(() -> store.readConsistency(definition.name()));
  }

  private StateCache cache() {
    return store.stateCache();
  }

  private A fold(A state, List<? extends E> events) {
    A folded = state;
    for (E event : events) {
      folded = definition.replay().apply(folded, event);
    }
    return folded;
  }

  private String idString(I id) {
    return definition.keys().idString(id);
  }

  private Versioned<A> versioned(LoadedStream<A> stream) {
    return new Versioned<>(stream, definition);
  }
}
