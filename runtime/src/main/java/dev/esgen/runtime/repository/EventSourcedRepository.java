package dev.esgen.runtime.repository;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.ValueNotFoundException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.history.EventContext;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.internal.cache.StateCache;
import dev.esgen.runtime.internal.command.CommandAlreadyAppliedException;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryBudget;
import dev.esgen.runtime.internal.storage.AppendIds;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.EventPage;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import software.amazon.awssdk.core.exception.AbortedException;

/**
 * The typed repository API every generated {@code FooRepository} inherits.
 *
 * <p>Every write is one atomic append conditioned on the stream's version: either all of its events
 * are stored or none, and a returned append is stored exactly once. Failures are retried within the
 * store's {@link RetryPolicy}; a write whose outcome stays unknown ends in
 * {@link dev.esgen.runtime.error.AppendOutcomeUnknownException}, which a repeat with the same command id
 * settles (see {@link #transact(Object, String, Function)}). The repository holds no state besides its
 * store and definition and is safe to share between threads. Each public operation is reported, with the
 * DynamoDB requests and capacity it used, to the store's {@link dev.esgen.runtime.metrics.StoreListener}.
 *
 * <p>Loads and lookups are strongly consistent unless the store's config makes eventually consistent
 * reads the default for this aggregate type ({@link dev.esgen.runtime.config.StoreConfig#withReadConsistency})
 * or a call asks for them with {@link ReadOptions}. With the store's state cache
 * ({@link dev.esgen.runtime.config.StateCachePolicy}) {@code transact} decides on the state this store
 * last read or wrote and sends only the append (one request) when no one else wrote since; a
 * {@link ReadOptions#cachedWithin} load returns a cached state without any request.
 *
 * <p>Generated subclasses add typed lookups for {@code @Indexed} and {@code @Unique} columns on top of the
 * protected {@code ...ByUnique} and {@code ...ByIndex} methods here. Unique lookups read the value's
 * reservation (strongly consistent unless eventual reads are this type's default); indexed lookups go
 * through a global secondary index and are eventually consistent; null values are never indexed.
 *
 * <pre>{@code
 * BankAccountRepository accounts = new BankAccountRepository(store);
 * Versioned<BankAccount> opened = accounts.create(new AccountOpened(id, "Ann", "ann@example.com", now));
 * accounts.append(id, opened.version(), new MoneyDeposited(500));      // fails if someone wrote since
 * accounts.transact(id, account -> account.deposit(500));              // load, decide, append, retry
 * BankAccount account = accounts.load(id);
 * BankAccount cheaper = accounts.load(id, ReadOptions.eventual());      // half the read units
 * }</pre>
 *
 * @param <A> the aggregate type
 * @param <I> its id type
 * @param <E> the sealed root of its events
 */
public abstract class EventSourcedRepository<A, I, E> {

  /** How many events {@link #events(Object, long)} reads per page. */
  private static final int EVENT_PAGE_SIZE = 100;

  /** How many index entries {@code loadByX} of an {@code @Indexed} column reads per request. */
  private static final int FIND_PAGE_SIZE = 10;

  private final StoreInternals store;
  private final AggregateDefinition<A, I, E> definition;

  /**
   * @throws IllegalArgumentException when {@code store} is not one of esgen's stores
   * @throws dev.esgen.runtime.error.DuplicateAggregateNameException when {@code store} already serves
   *     another aggregate type under {@code definition}'s name
   */
  protected EventSourcedRepository(EventStore store, AggregateDefinition<A, I, E> definition) {
    this.store = internals(Objects.requireNonNull(store, "store"));
    this.definition = Objects.requireNonNull(definition, "definition");
    this.store.claimName(definition);
  }

  /** The definition of the aggregate type this repository stores. */
  public final AggregateDefinition<A, I, E> definition() {
    return definition;
  }

  /**
   * Starts a new stream with {@code event}, which must be the aggregate's creating event.
   *
   * @throws dev.esgen.runtime.error.AggregateAlreadyExistsException when a stream with the new
   *     aggregate's id is already stored
   */
  public final Versioned<A> create(E event) {
    return create(Collections.singletonList(event));
  }

  /**
   * Starts a new stream with {@code events}: the creating event first, then events applied to it, all
   * stored atomically.
   *
   * @throws dev.esgen.runtime.error.AggregateAlreadyExistsException when a stream with the new
   *     aggregate's id is already stored
   */
  public final Versioned<A> create(List<? extends E> events) {
    return create(AppendOptions.none(), events);
  }

  /**
   * Starts a new stream with {@code events} as the command {@code commandId}: a repeat of a command id
   * already applied to the new aggregate's stream returns the stream as stored now and writes nothing,
   * also after a restart or an {@link dev.esgen.runtime.error.AppendOutcomeUnknownException}.
   *
   * <pre>{@code
   * accounts.create("open-" + requestId, List.of(new AccountOpened(id, "Ann", "ann@example.com", now)));
   * }</pre>
   *
   * @throws dev.esgen.runtime.error.AggregateAlreadyExistsException when the stream exists and was not
   *     created by this command
   * @throws dev.esgen.runtime.error.InvalidCommandIdException when {@code commandId} is null, empty or
   *     over {@value CommandRecords#MAX_COMMAND_ID_BYTES} bytes
   */
  public final Versioned<A> create(String commandId, List<? extends E> events) {
    // Checked inside the operation, so that the listener hears of an invalid command id as the async repository's.
    return record("create", attempts -> createStream(
        events, AppendOptions.command(CommandRecords.check(definition.name(), commandId)), attempts));
  }

  /**
   * Starts a new stream with {@code events}, with the command id and metadata of {@code options}; see
   * {@link #create(String, List)} for what a command id does.
   *
   * <pre>{@code
   * accounts.create(AppendOptions.metadata(EventMetadata.none().withActor("onboarding")), List.of(opened));
   * }</pre>
   */
  public final Versioned<A> create(AppendOptions options, List<? extends E> events) {
    return record("create", attempts -> createStream(events, checked(options), attempts));
  }

  /** Appends {@code event} if the stream is still at {@code expectedVersion}; see {@link #append(Object, long, List)}. */
  public final Versioned<A> append(I id, long expectedVersion, E event) {
    return append(id, expectedVersion, Collections.singletonList(event));
  }

  /**
   * Appends {@code events} atomically if the stream is still at {@code expectedVersion}. An empty list
   * writes nothing and returns the current state (after checking the version). The stream is loaded
   * first with a strongly consistent read, unless the store's state cache holds it at exactly
   * {@code expectedVersion} and {@code events} is not empty: then the append is the only request, and
   * DynamoDB refuses it if another writer got there first.
   *
   * @throws AggregateNotFoundException when no stream is stored under {@code id}
   * @throws VersionConflictException when the stream is at another version, found on load or
   *     at the write; nothing is written
   */
  public final Versioned<A> append(I id, long expectedVersion, List<? extends E> events) {
    return record("append", attempts ->
        appendAtVersion(id, expectedVersion, AppendOptions.none(), Arguments.events(definition, events), attempts));
  }

  /**
   * Appends {@code events} as the command {@code commandId}, if the stream is still at
   * {@code expectedVersion}. A repeat of a command id already applied to this stream returns the stream as
   * stored now and writes nothing, whatever {@code expectedVersion} says, also after a restart or an
   * {@link dev.esgen.runtime.error.AppendOutcomeUnknownException}.
   *
   * <pre>{@code
   * Versioned<BankAccount> account = accounts.loadVersioned(id);
   * accounts.append(id, account.version(), "deposit-" + requestId, account.state().deposit(500));
   * }</pre>
   *
   * @throws VersionConflictException when the command was not applied and the stream is at another
   *     version; nothing is written
   */
  public final Versioned<A> append(I id, long expectedVersion, String commandId, List<? extends E> events) {
    return record("append", attempts -> appendCommand(id, expectedVersion,
        AppendOptions.command(CommandRecords.check(definition.name(), commandId)),
        Arguments.events(definition, events), attempts));
  }

  /**
   * Appends {@code events} if the stream is still at {@code expectedVersion}, with the command id and
   * metadata of {@code options}; see {@link #append(Object, long, String, List)} for what a command id does.
   */
  public final Versioned<A> append(I id, long expectedVersion, AppendOptions options, List<? extends E> events) {
    return record("append", attempts -> {
      Arguments.events(definition, events);
      return appendCommand(id, expectedVersion, checked(options), events, attempts);
    });
  }

  /**
   * Appends {@code events} atomically to the stream as {@code loaded} saw it, if it is still at that
   * version. With a {@code Versioned} this repository returned (from a load, a create or an earlier
   * append) this is a single write request: what the load read travels with it. With one built by hand, or
   * one a repository of another definition returned (whose code may fold the events otherwise), the stream
   * is loaded first, as {@link #append(Object, long, List)} does. An empty list writes nothing.
   *
   * <pre>{@code
   * Versioned<BankAccount> account = accounts.loadVersioned(id);
   * account = accounts.append(account, account.state().deposit(500));   // one request
   * account = accounts.append(account, account.state().withdraw(200));  // one more
   * }</pre>
   *
   * @throws VersionConflictException when another writer appended since {@code loaded}; nothing
   *     is written
   */
  public final Versioned<A> append(Versioned<A> loaded, List<? extends E> events) {
    if (loaded != null && loaded.streamFor(definition).isEmpty()) {
      return append(definition.keys().idOf(loaded.state()), loaded.version(), events);
    }
    return record("append", attempts -> {
      Arguments.required(definition, loaded, "the loaded aggregate is null");
      I id = definition.keys().idOf(loaded.state());
      return appendTo(id, loaded.streamFor(definition).orElseThrow(), Arguments.events(definition, events),
          AppendOptions.none(), attempts);
    });
  }

  /**
   * Loads the aggregate, asks {@code decide} for new events and appends them at the loaded version; on
   * a version conflict reloads and decides again, as the store's {@link RetryPolicy} allows,
   * waiting a jittered, growing time between attempts. {@code decide} may therefore run more than once
   * and must not have side effects beyond returning events. An empty decision writes nothing.
   *
   * <p>With the store's state cache, the state this store last read or wrote is decided on without a
   * load: one request when no one else wrote the stream since. When someone did, the append is refused
   * (nothing is written), and the stream is reloaded with a strongly consistent read and decided on
   * again. The first load reads with this type's default consistency; every reload after a conflict is
   * strongly consistent. A decision on a cached state that writes nothing, or that throws (in
   * {@code decide} or in an event handler applying its events), is made again on a strongly consistent
   * reload before it is returned or thrown.
   *
   * <p>If the process dies or the call fails with
   * {@link dev.esgen.runtime.error.AppendOutcomeUnknownException}, the command may or may not be stored;
   * use {@link #transact(Object, String, Function)} with a command id to be able to repeat it safely.
   *
   * @throws AggregateNotFoundException when no stream is stored under {@code id}
   * @throws VersionConflictException after the last attempt lost to other writers, telling how
   *     many attempts were made
   */
  public final Versioned<A> transact(I id, Function<? super A, ? extends List<? extends E>> decide) {
    return transact(id, AppendOptions.none(), decide);
  }

  /**
   * As {@link #transact(Object, Function)}, as the idempotent command {@code commandId}: the command id is
   * stored with the command's events in the same atomic write, and a repeat of a command id already
   * applied to this stream returns the stream as stored now, without calling {@code decide} and without
   * appending. A repeat is recognised however late it comes: after a restart, after an
   * {@link dev.esgen.runtime.error.AppendOutcomeUnknownException}, or while the first try is still
   * running elsewhere (one of them stores it, the other returns the stored result). A command id
   * belongs to one stream; choose one per command the caller wants applied once, e.g. the id of the
   * request that asked for it. It costs one strongly consistent read before deciding and one small item
   * written with the events (see {@code docs/reliability.md}).
   *
   * <pre>{@code
   * accounts.transact(id, "deposit-" + requestId, account -> account.deposit(500));
   * accounts.transact(id, "deposit-" + requestId, account -> account.deposit(500));   // stored once
   * }</pre>
   *
   * @throws dev.esgen.runtime.error.InvalidCommandIdException when {@code commandId} is null, empty or
   *     over {@value CommandRecords#MAX_COMMAND_ID_BYTES} bytes
   */
  public final Versioned<A> transact(I id, String commandId, Function<? super A, ? extends List<? extends E>> decide) {
    return record("transact", attempts -> transactCommand(
        id, AppendOptions.command(CommandRecords.check(definition.name(), commandId)), decide, attempts));
  }

  /**
   * As {@link #transact(Object, Function)}, with the command id and metadata of {@code options}: with a
   * command id it is the idempotent command of {@link #transact(Object, String, Function)}; its metadata,
   * completed from the calling thread's {@link dev.esgen.runtime.history.EventContext}, is stored with
   * every event.
   *
   * <pre>{@code
   * accounts.transact(id, AppendOptions.command("deposit-" + requestId)
   *     .withMetadata(EventMetadata.none().withActor("teller-7")), account -> account.deposit(500));
   * }</pre>
   */
  public final Versioned<A> transact(I id, AppendOptions options,
      Function<? super A, ? extends List<? extends E>> decide) {
    return record("transact", attempts -> transactCommand(id, checked(options), decide, attempts));
  }

  /**
   * Every event of the stream {@code id}, oldest first; see {@link #events(Object, long)}.
   *
   * @throws AggregateNotFoundException when no stream is stored under {@code id}
   */
  public final Stream<RecordedEvent<E>> events(I id) {
    return events(id, 1);
  }

  /**
   * The events of the stream {@code id} from seq_nr {@code fromSeqNr} on, oldest first, as stored when
   * this method was called: appends made while the stream is consumed are not included. The events are
   * read with strong consistency, {@value #EVENT_PAGE_SIZE} at a time as the stream is consumed, so a long
   * history is never held in memory at once. Each page is one operation for the store's listener
   * ({@code events}): on the journal layout a {@code GetItem} of the head row and a {@code Query} of the
   * page, on the tip layout a {@code GetItem} of the tip plus, for events calved into batches, two
   * {@code Query} requests.
   *
   * <p>The events are upcast as they are read (see {@link RecordedEvent}): a stored event of a split type
   * gives several events with its seq_nr, a dropped one none.
   *
   * <pre>{@code
   * try (Stream<RecordedEvent<AccountEvent>> history = accounts.events(id)) {
   *   history.forEach(e -> System.out.printf("%3d %-20s %s%n", e.seqNr(), e.eventType(), e.recordedAt()));
   * }
   * }</pre>
   *
   * @throws AggregateNotFoundException when no stream is stored under {@code id}
   * @throws IllegalArgumentException when {@code fromSeqNr} is below 1
   */
  public final Stream<RecordedEvent<E>> events(I id, long fromSeqNr) {
    if (fromSeqNr < 1) {
      throw new IllegalArgumentException(definition.name() + ": seq_nrs start at 1, fromSeqNr was " + fromSeqNr);
    }
    EventPage<E> first = readEventPage(id, fromSeqNr, pageEnd(fromSeqNr));
    Iterator<RecordedEvent<E>> pages = new PagedEvents(id, first, fromSeqNr);
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(pages, Spliterator.ORDERED | Spliterator.NONNULL), false);
  }

  /** The aggregate stored under {@code id}, if any, read as this type's reads default. */
  public final Optional<A> findById(I id) {
    return findById(id, ReadOptions.defaults());
  }

  /**
   * The aggregate stored under {@code id}, if any, read as {@code options} say.
   *
   * <pre>{@code
   * Optional<BankAccount> account = accounts.findById(id, ReadOptions.eventual());
   * }</pre>
   */
  public final Optional<A> findById(I id, ReadOptions options) {
    return record("findById", attempts -> read(id, options).map(LoadedStream::state));
  }

  /**
   * The aggregate stored under {@code id}, read as this type's reads default.
   *
   * @throws AggregateNotFoundException when there is none
   */
  public final A load(I id) {
    return load(id, ReadOptions.defaults());
  }

  /**
   * The aggregate stored under {@code id}, read as {@code options} say: e.g. eventually consistent for
   * half the read units, or from the store's state cache without a request. A read with a state cache
   * folds on from the state it remembers, reading only what was appended since.
   *
   * <pre>{@code
   * BankAccount account = accounts.load(id, ReadOptions.cachedWithin(Duration.ofSeconds(10)));
   * }</pre>
   *
   * @throws AggregateNotFoundException when there is none (or, eventually consistent, none was seen)
   */
  public final A load(I id, ReadOptions options) {
    return record("load", attempts -> existing(id, read(id, options)).state());
  }

  /**
   * The aggregate stored under {@code id} with its version, for a later {@link #append(Object, long, List)},
   * read as this type's reads default.
   *
   * @throws AggregateNotFoundException when there is none
   */
  public final Versioned<A> loadVersioned(I id) {
    return loadVersioned(id, ReadOptions.defaults());
  }

  /**
   * The aggregate stored under {@code id} with its version, read as {@code options} say. A version read
   * eventually consistent or from the cache may be behind; an append on it then fails with
   * {@link VersionConflictException} and writes nothing.
   *
   * <pre>{@code
   * Versioned<BankAccount> account = accounts.loadVersioned(id, ReadOptions.eventual());
   * accounts.append(account, account.state().deposit(500));
   * }</pre>
   *
   * @throws AggregateNotFoundException when there is none (or, eventually consistent, none was seen)
   */
  public final Versioned<A> loadVersioned(I id, ReadOptions options) {
    return record("loadVersioned", attempts -> versioned(existing(id, read(id, options))));
  }

  /** The aggregate stored under {@code id} with its version and last seq_nr, if any, read as this type's reads default. */
  public final Optional<Versioned<A>> findVersioned(I id) {
    return findVersioned(id, ReadOptions.defaults());
  }

  /**
   * The aggregate stored under {@code id} with its version and last seq_nr, if any, read as
   * {@code options} say.
   *
   * <pre>{@code
   * Optional<Versioned<BankAccount>> account = accounts.findVersioned(id, ReadOptions.strong());
   * }</pre>
   */
  public final Optional<Versioned<A>> findVersioned(I id, ReadOptions options) {
    return record("findVersioned", attempts -> read(id, options).map(this::versioned));
  }

  /**
   * The aggregates stored under {@code ids}, read as this type's reads default in batches (a
   * {@code BatchGetItem} per 100 ids, not a request per id); ids with no aggregate are left out. The
   * map iterates in the order of {@code ids}.
   */
  public final Map<I, A> findAll(Collection<I> ids) {
    return findAll(ids, ReadOptions.defaults());
  }

  /**
   * The aggregates stored under {@code ids}, read as {@code options} say: those the store's state cache
   * holds young enough come from it, the others from DynamoDB in batches, and the cache remembers those.
   * Ids with no aggregate are left out; the map iterates in the order of {@code ids}.
   *
   * <pre>{@code
   * Map<AccountId, BankAccount> accounts = repository.findAll(ids, ReadOptions.eventual());
   * }</pre>
   */
  public final Map<I, A> findAll(Collection<I> ids, ReadOptions options) {
    return record("findAll", attempts -> {
      Arguments.ids(definition, ids);
      Arguments.required(definition, options, "the read options are null");
      Map<I, LoadedStream<A>> cached = new LinkedHashMap<>();
      List<I> missing = new ArrayList<>();
      for (I id : ids) {
        Optional<LoadedStream<A>> hit = cachedWithin(id, options);
        if (hit.isPresent()) {
          cached.put(id, hit.get());
        } else {
          missing.add(id);
        }
      }
      long since = cache().now();
      Map<I, LoadedStream<A>> loaded = missing.isEmpty()
          ? Map.of()
          : layout().loadAll(definition, missing, consistency(options), cache().findEach(definition, missing));
      loaded.forEach((id, stream) -> cache().remember(definition, idString(id), stream, since));
      Map<I, A> found = new LinkedHashMap<>();
      for (I id : ids) {
        LoadedStream<A> stream = cached.containsKey(id) ? cached.get(id) : loaded.get(id);
        if (stream != null) {
          found.put(id, stream.state());
        }
      }
      return found;
    });
  }

  /**
   * A page of every aggregate of this type, each read strongly consistent (on the tip layout the ids come
   * from the listing index, which is eventually consistent: a stream created a moment ago may be missing
   * for a moment, see {@code docs/index-columns.md}), in the storage layout's stable order:
   * shard by shard, then on the tip layout by id string (its UTF-8 bytes, as DynamoDB orders keys), on the
   * journal layout by head-row sort key ({@code {aggregate}-{id}-0...0}), which is id string order except
   * where one id continues another with a character below {@code -}, or with {@code -} and up to 19
   * {@code 0}s followed by nothing or by a character below {@code 0} ({@code "a!"}, {@code "a-"} and
   * {@code "a-0"} are listed before {@code "a"}; see {@code docs/schema.md}).
   * Aggregates created while paging may or may not appear, depending on where they sort.
   */
  public final Page<A> listAll(PageRequest page) {
    return record("listAll", attempts -> layout()
        .listAll(definition, Arguments.required(definition, page, "the page request is null"))
        .map(LoadedStream::state));
  }

  /**
   * The aggregate holding {@code value} in the {@code @Unique} column {@code column}, found through the
   * value's reservation with a strongly consistent read, so an aggregate created or changed by a
   * completed append is found at once (unless eventually consistent reads are this type's default: then
   * both reads are eventually consistent, for half the read units). Generated {@code findByX} methods
   * call this.
   *
   * @param value the value's stored string form ({@link dev.esgen.runtime.index.IndexValues}); it is
   *     normalised as the column says
   */
  protected final Optional<A> findByUnique(IndexColumn column, String value) {
    // Checked inside the operation, so that the listener hears of these lookups as the async repository's.
    return record("findBy" + column.name(), attempts -> {
      IndexLookups.requireValue(definition, column, value);
      if (!IndexKeys.fits(definition.name(), column, value)) {
        return Optional.empty();
      }
      ReadConsistency consistency = consistency(ReadOptions.defaults());
      Optional<I> holder = layout().findUnique(definition, column, value, consistency);
      if (holder.isEmpty()) {
        return Optional.empty();
      }
      String wanted = column.normalize(value);
      return loadStored(holder.get(), consistency)
          .map(LoadedStream::state)
          .filter(state -> wanted.equals(IndexLookups.normalizedValue(definition, state, column)));
    });
  }

  /**
   * The aggregate holding {@code value} in the {@code @Unique} column {@code column}, as
   * {@link #findByUnique}.
   *
   * @throws ValueNotFoundException when no aggregate holds it
   */
  protected final A loadByUnique(IndexColumn column, String value) {
    return findByUnique(column, value)
        .orElseThrow(() -> new ValueNotFoundException(definition.name(), column.name(), value));
  }

  /**
   * The aggregate with the smallest id string (in UTF-8 byte order) among those whose {@code @Indexed}
   * column {@code column} holds {@code value}. Found through a global secondary index, which is eventually
   * consistent: an append that just set the value may not be seen yet. Every candidate is loaded (strongly
   * consistent unless eventual reads are this type's default) and returned only if it still holds the value.
   */
  protected final Optional<A> findByIndex(IndexColumn column, String value) {
    return record("findBy" + column.name(), attempts -> {
      PageRequest request = PageRequest.first(FIND_PAGE_SIZE);
      while (true) {
        Page<A> page = listByIndex(column, value, request);
        if (!page.items().isEmpty()) {
          return Optional.of(page.items().get(0));
        }
        if (page.nextCursor().isEmpty()) {
          return Optional.empty();
        }
        request = PageRequest.after(page.nextCursor().get(), FIND_PAGE_SIZE);
      }
    });
  }

  /**
   * As {@link #findByIndex}.
   *
   * @throws ValueNotFoundException when no aggregate holds {@code value}
   */
  protected final A loadByIndex(IndexColumn column, String value) {
    return findByIndex(column, value)
        .orElseThrow(() -> new ValueNotFoundException(definition.name(), column.name(), value));
  }

  /**
   * A page of the aggregates whose {@code @Indexed} column {@code column} holds {@code value}, ordered by
   * id string. The ids come from a global secondary index (eventually consistent); the aggregates are
   * then loaded in one batch (strongly consistent unless eventual reads are this type's default), and any
   * whose current value differs (the
   * index had not caught up) is left out, so a page may hold fewer than {@code page.size()} items while
   * more follow.
   */
  protected final Page<A> listByIndex(IndexColumn column, String value, PageRequest page) {
    // Checked inside the operation, so that the listener hears of these lookups as the async repository's.
    return record("listBy" + column.name(), attempts -> {
      IndexLookups.requireValue(definition, column, value);
      Arguments.required(definition, page, "the page request is null");
      if (!IndexKeys.fits(definition.name(), column, value)) {
        return IndexLookups.noHolders(definition, column, value, page);
      }
      Page<I> ids = layout().findIndexed(definition, column, value, page);
      Map<I, LoadedStream<A>> loaded = layout().loadAll(
          definition, ids.items(), consistency(ReadOptions.defaults()), cache().findEach(definition, ids.items()));
      List<A> items = new ArrayList<>();
      for (LoadedStream<A> stream : loaded.values()) {
        if (value.equals(definition.indexColumns().values(stream.state()).get(column.name()))) {
          items.add(stream.state());
        }
      }
      return new Page<>(items, ids.nextCursor());
    });
  }

  /**
   * Writes every index value the aggregate stored under {@code id} holds now, changed or not: the
   * backfill for a component that became {@code @Indexed} or {@code @Unique} after the aggregate was
   * stored. Appends write only the values they change, so until then such an aggregate is not found by
   * the new column, and its unique value is not protected.
   *
   * <p>One atomic write per call (the slots on the stream's version-carrying item plus a reservation per
   * non-null {@code @Unique} value), conditioned on the stream still being at the version just loaded,
   * so a concurrent append's values are never overwritten with older ones; it then reloads and tries
   * again, as the store's {@link RetryPolicy} allows. It is no append: no event is stored, version and
   * seq_nr stay as they are. Idempotent: running it again writes the same values, and re-putting a
   * reservation this aggregate already holds changes nothing. See {@code docs/index-columns.md} for what
   * it costs.
   *
   * <pre>{@code
   * // BankAccount.email just became @Unique; account 42 was stored before that
   * accounts.findByEmail("ann@example.com");   // Optional.empty()
   * accounts.reindex(new AccountId("42"));
   * accounts.findByEmail("ann@example.com");   // account 42
   * }</pre>
   *
   * @return the aggregate as its values were written, at the version it already had
   * @throws AggregateNotFoundException when no stream is stored under {@code id}
   * @throws dev.esgen.runtime.error.DuplicateValueException when another aggregate holds one of its
   *     {@code @Unique} values (naming column and holder; the value is in its {@code value()}); nothing is
   *     written
   * @throws dev.esgen.runtime.error.ItemTooLargeException when the index values would take the item that
   *     carries the stream's version (the journal's head row, the tip) past DynamoDB's 400 KB; nothing is
   *     written
   * @throws VersionConflictException when appends changed the stream before every attempt
   */
  public final Versioned<A> reindex(I id) {
    return record("reindex", attempts -> versioned(reindexStream(id, loadExisting(id), attempts)));
  }

  /**
   * {@link #reindex(Object) Reindexes} every aggregate of this type, walking {@link #listAll} page by
   * page to the end, and reports how many were reindexed and which hold a {@code @Unique} value another
   * aggregate holds too. Such a duplicate does not stop the run: an operator backfilling a column wants
   * every duplicate listed at once, not a run that stops at the first. Nothing is written for those
   * aggregates; all others get their values.
   *
   * <p>Each page is reported to the store's listener as its own {@code reindexAll} operation, so a long
   * run shows its progress. Running it again is safe and writes the same values (it is idempotent); to
   * resume where a failed run stopped instead of from the start, walk the pages yourself with
   * {@link #reindexAll(PageRequest)}. Aggregates created during the run need no reindex: their creation
   * wrote their values.
   *
   * <pre>{@code
   * ReindexReport<AccountId> report = accounts.reindexAll();
   * if (!report.duplicates().isEmpty()) {
   *   // a Duplicate's toString names the aggregates and the column, never the value
   *   throw new IllegalStateException("resolve before relying on @Unique email: " + report.duplicates());
   * }
   * }</pre>
   *
   * @throws VersionConflictException when appends to one aggregate changed it before every attempt
   */
  public final ReindexReport<I> reindexAll() {
    long reindexed = 0;
    List<ReindexReport.Duplicate<I>> duplicates = new ArrayList<>();
    PageRequest request = PageRequest.first(PageRequest.MAX_SIZE);
    while (true) {
      ReindexReport<I> page = reindexAll(request);
      reindexed += page.reindexed();
      duplicates.addAll(page.duplicates());
      if (page.nextCursor().isEmpty()) {
        return new ReindexReport<>(reindexed, duplicates, Optional.empty());
      }
      request = PageRequest.after(page.nextCursor().get(), PageRequest.MAX_SIZE);
    }
  }

  /**
   * {@link #reindex(Object) Reindexes} the aggregates of one page of {@link #listAll}, as
   * {@link #reindexAll()} does for all pages: for a backfill that can resume after a failure from the
   * last cursor it stored.
   *
   * <pre>{@code
   * Optional<String> cursor = checkpoint.load();
   * do {
   *   ReindexReport<AccountId> page = accounts.reindexAll(cursor.map(c -> PageRequest.after(c, 100))
   *       .orElse(PageRequest.first(100)));
   *   page.duplicates().forEach(duplicate -> log.warn("duplicate: {}", duplicate));
   *   cursor = page.nextCursor();
   *   checkpoint.save(cursor);
   * } while (cursor.isPresent());
   * }</pre>
   *
   * @return the page's report, with the cursor of the next page
   * @throws VersionConflictException when appends to one aggregate changed it before every attempt
   */
  public final ReindexReport<I> reindexAll(PageRequest page) {
    return record("reindexAll", attempts -> {
      Arguments.required(definition, page, "the page request is null");
      Page<LoadedStream<A>> listed = layout().listAll(definition, page);
      long reindexed = 0;
      List<ReindexReport.Duplicate<I>> duplicates = new ArrayList<>();
      for (LoadedStream<A> stream : listed.items()) {
        I id = definition.keys().idOf(stream.state());
        try {
          // The listing read the stream already: no load unless an append intervenes.
          reindexStream(id, stream, attempts);
          reindexed++;
        } catch (DuplicateValueException e) {
          duplicates.add(new ReindexReport.Duplicate<>(id, e.column(), e.value(),
              e.holderId().map(definition.keys()::parseId)));
        } catch (IllegalArgumentException e) {
          // A value stored before its column existed that no key can hold ends the run here every time:
          // name the aggregate, so that its value can be changed before the run is resumed.
          throw new IllegalArgumentException(definition.name() + " " + idString(id) + " cannot be reindexed: "
              + e.getMessage(), e);
        }
      }
      return new ReindexReport<>(reindexed, duplicates, listed.nextCursor());
    });
  }

  /** Reindexes {@code loaded}; after a concurrent append reloads and tries again, as the retry policy allows. */
  private LoadedStream<A> reindexStream(I id, LoadedStream<A> loaded, OperationRecorder.Attempts attempts) {
    LoadedStream<A> current = loaded;
    while (true) {
      attempts.attempt();
      try {
        layout().reindex(definition, current);
        // The stream's item now holds index values the remembered stream does not know of, nor their
        // sizes: a later append deciding on it would measure the item without them.
        cache().forgetUpTo(definition, idString(id), current.version());
        return current;
      } catch (VersionConflictException conflict) {
        attempts.conflict(conflict);
        if (!attempts.budget().retry(FailureKind.VERSION_CONFLICT, conflict)) {
          throw new VersionConflictException(definition.name(), idString(id), conflict.expectedVersion(),
              conflict.actualVersion(), attempts.budget().failedAttempts(), conflict);
        }
        current = loadExisting(id);
      }
    }
  }

  private Versioned<A> createStream(
      List<? extends E> events, AppendOptions options, OperationRecorder.Attempts attempts) {
    Arguments.events(definition, events);
    if (events.isEmpty()) {
      throw new IllegalArgumentException(definition.name() + ": create needs at least the creating event");
    }
    A state = definition.replay().create(events.get(0));
    I id = definition.keys().idOf(state);
    Optional<Versioned<A>> repeat = alreadyApplied(id, options.commandId());
    if (repeat.isPresent()) {
      return repeat.get();
    }
    state = fold(state, events.subList(1, events.size()));
    attempts.attempt();
    AppendRequest<A, I, E> request = new AppendRequest<>(definition, id, idString(id), Optional.empty(),
        List.copyOf(events), state, AppendIds.next(), options.commandId(), metadata(options));
    return write(request);
  }

  /**
   * An append of the checked {@code options}' command with the checked {@code events}, unless it was applied
   * already.
   */
  private Versioned<A> appendCommand(I id, long expectedVersion, AppendOptions options, List<? extends E> events,
      OperationRecorder.Attempts attempts) {
    Optional<Versioned<A>> repeat = alreadyApplied(id, options.commandId());
    return repeat.isPresent() ? repeat.get() : appendAtVersion(id, expectedVersion, options, events, attempts);
  }

  /** A transact of the checked {@code options}' command, unless it was applied already. */
  private Versioned<A> transactCommand(I id, AppendOptions options,
      Function<? super A, ? extends List<? extends E>> decide, OperationRecorder.Attempts attempts) {
    Arguments.required(definition, decide, "the decide function is null");
    Optional<Versioned<A>> repeat = alreadyApplied(id, options.commandId());
    return repeat.isPresent() ? repeat.get() : decideAndAppend(id, options, decide, attempts);
  }

  private Versioned<A> appendAtVersion(I id, long expectedVersion, AppendOptions options,
      List<? extends E> events, OperationRecorder.Attempts attempts) {
    // A version names one state of the stream, so a cached stream at exactly that version is what a load
    // would return if no one wrote since; if someone did, DynamoDB refuses the conditioned append. An empty
    // append sends nothing DynamoDB could refuse, so only a load checks its version.
    // Not Optional.orElseGet: the load's requests would run three frames deeper (see RetryBudgets.enter).
    Optional<LoadedStream<A>> cached = cache().find(definition, idString(id));
    LoadedStream<A> current = cached.isPresent() && cached.get().version() == expectedVersion && !events.isEmpty()
        ? cached.get()
        : loadExisting(id);
    if (current.version() != expectedVersion) {
      // A concurrent try of the same command may have moved the stream since the command was looked up.
      Optional<Versioned<A>> repeat = alreadyApplied(id, options.commandId());
      if (repeat.isPresent()) {
        return repeat.get();
      }
      throw new VersionConflictException(
          definition.name(), idString(id), expectedVersion, OptionalLong.of(current.version()), 1);
    }
    return appendTo(id, current, events, options, attempts);
  }

  /**
   * The transact loop: decide on the cached stream, else on one loaded with the type's default
   * consistency; after a conflict on a newer cached stream (another thread of this process wrote it),
   * else on a strongly consistent reload. Every retry after a conflict draws on the operation's one retry
   * budget, which also makes this store's writers of a contended stream take turns.
   *
   * <p>A decision that writes is safe on any of these, because the append is conditioned on the version
   * decided on. A decision that writes nothing (no events, or {@code decide} threw) has no such check, so
   * unless it was made on a stream read with strong consistency in this operation, the stream is read
   * again that way: the decision stands if the version is the same, else it is made again on what is
   * stored.
   */
  private Versioned<A> decideAndAppend(I id, AppendOptions options,
      Function<? super A, ? extends List<? extends E>> decide, OperationRecorder.Attempts attempts) {
    String aid = idString(id);
    RetryBudget budget = attempts.budget();
    boolean ownTurn = !budget.holdsTurn();
    // On a stream this store's writers contend for, they write in turn rather than collide; the turn is
    // taken before reading, so that what is read is what the writer before left. With the state cache the
    // writer decides on the state it remembers, which a polite pause before every command would only let go
    // stale (measured with four stores on one stream, it tripled the requests per command), so there it
    // leaves other processes a gap before every few commands instead (ContentionPacing).
    budget.awaitTurn(definition.name(), aid, !cache().enabled());
    try {
      return decideAndAppendInTurn(id, aid, options, decide, attempts);
    } finally {
      if (ownTurn) {
        budget.releaseTurn();
      }
    }
  }

  private Versioned<A> decideAndAppendInTurn(I id, String aid, AppendOptions options,
      Function<? super A, ? extends List<? extends E>> decide, OperationRecorder.Attempts attempts) {
    Optional<LoadedStream<A>> cached = cache().find(definition, aid);
    LoadedStream<A> current = cached.isPresent() ? cached.get() : loadForDecision(id);
    boolean confirmed = cached.isEmpty() && consistency(ReadOptions.defaults()) == ReadConsistency.STRONG;
    while (true) {
      List<? extends E> events;
      A decided;
      try {
        A state = current.state();
        // Outside this operation: a repository call the decision makes is an operation of its own.
        events = store.recorder().outside(() -> decide.apply(state));
        // The handlers run as part of the decision: one that refuses a remembered state is checked against
        // the stored one, as a refusing decide is. A null list is no decision: refused below, at once.
        decided = events == null ? null : fold(state, events);
      } catch (RuntimeException rejected) {
        if (confirmed) {
          throw rejected;
        }
        LoadedStream<A> stored = loadExisting(id);
        if (stored.version() == current.version()) {
          throw rejected;
        }
        current = stored;
        confirmed = true;
        continue;
      }
      Arguments.required(definition, events, "the decision returned null; return List.of() to append nothing");
      if (events.isEmpty()) {
        if (confirmed) {
          return versioned(current);
        }
        LoadedStream<A> stored = loadExisting(id);
        confirmed = true;
        if (stored.version() == current.version()) {
          return versioned(stored);
        }
        current = stored;
        continue;
      }
      try {
        Versioned<A> written = appendFolded(id, current, events, decided, options, attempts);
        attempts.budget().wrote(definition.name(), aid);
        return written;
      } catch (VersionConflictException conflict) {
        attempts.conflict(conflict);
        long refused = current.version();
        // Every write of this store is remembered, so with the cache a refused write that finds no newer
        // version remembered lost to another process: the store then leaves that process gaps.
        boolean toAnotherProcess = cache().enabled() && cache().findNewerThan(definition, aid, refused).isEmpty();
        if (!attempts.budget().retryConflict(definition.name(), aid, conflict, toAnotherProcess)) {
          throw new VersionConflictException(definition.name(), aid, conflict.expectedVersion(),
              conflict.actualVersion(), attempts.budget().failedAttempts(), conflict);
        }
        Optional<LoadedStream<A>> newer = cache().findNewerThan(definition, aid, refused);
        current = newer.isPresent() ? newer.get() : reloadAfterConflict(id, current);
        confirmed = newer.isEmpty();
      }
    }
  }

  /**
   * The stream to decide on first: read with the type's default consistency. An eventually consistent
   * read that finds nothing may have missed a stream just created, so a strongly consistent one decides.
   */
  private LoadedStream<A> loadForDecision(I id) {
    ReadConsistency consistency = consistency(ReadOptions.defaults());
    if (consistency == ReadConsistency.STRONG) {
      return loadExisting(id);
    }
    long since = cache().now();
    Optional<LoadedStream<A>> loaded = loadStored(id, consistency);
    if (loaded.isEmpty()) {
      return loadExisting(id);
    }
    cache().remember(definition, idString(id), loaded.get(), since);
    return loaded.get();
  }

  private Versioned<A> appendTo(I id, LoadedStream<A> current, List<? extends E> events,
      AppendOptions options, OperationRecorder.Attempts attempts) {
    if (events.isEmpty()) {
      return versioned(current);
    }
    return appendFolded(id, current, events, fold(current.state(), events), options, attempts);
  }

  /** Appends {@code events} to {@code current}, whose state they fold into {@code state}. */
  private Versioned<A> appendFolded(I id, LoadedStream<A> current, List<? extends E> events, A state,
      AppendOptions options, OperationRecorder.Attempts attempts) {
    attempts.attempt();
    return write(new AppendRequest<>(definition, id, idString(id), Optional.of(current), List.copyOf(events), state,
        AppendIds.next(), options.commandId(), metadata(options)));
  }

  /**
   * Appends {@code request}; a concurrent try of the same command that won answers with the stored stream.
   * DynamoDB names the command record when it refuses the append for it, except when the append's outcome
   * was unknown and reading it back found another append in its place: so an append of a command that
   * lost its version looks the command up before it reports the conflict. The stream as stored is
   * remembered in the cache; any failure, whether nothing was written or the outcome is unknown, makes
   * the cache forget the stream it built on.
   */
  private Versioned<A> write(AppendRequest<A, I, E> request) {
    String aid = request.aggregateId();
    long since = cache().now();
    LoadedStream<A> stored;
    try {
      stored = layout().append(request);
    } catch (CommandAlreadyAppliedException repeated) {
      return versioned(loadExisting(request.id()));
    } catch (VersionConflictException lost) {   // AggregateAlreadyExistsException too
      cache().forgetUpTo(definition, aid, request.expectedVersion());
      Optional<Versioned<A>> repeat = alreadyApplied(request.id(), request.commandId());
      if (repeat.isPresent()) {
        return repeat.get();
      }
      throw lost;
    } catch (AbortedException interrupted) {
      // The calling thread was interrupted while the append was in flight: DynamoDB may have stored it, and a
      // read to settle it would be aborted too. The caller learns so, and its thread stays interrupted.
      cache().forgetUpTo(definition, aid, request.expectedVersion());
      Thread.currentThread().interrupt();
      throw new AppendOutcomeUnknownException(definition.name(), aid, request.expectedVersion(), request.appendId(),
          request.commandId(), "the calling thread was interrupted while the append was sent; repeat the command"
              + " with its command id to learn whether it was stored", interrupted);
    } catch (RuntimeException failed) {
      cache().forgetUpTo(definition, aid, request.expectedVersion());
      throw failed;
    }
    cache().remember(definition, aid, stored, since);
    return versioned(stored);
  }

  /** The metadata to store: the options', completed from the calling thread's context. */
  private static EventMetadata metadata(AppendOptions options) {
    return options.metadata().orElse(EventContext.current());
  }

  /** The stream as stored now, when the command {@code commandId}, if any, was already applied to it. */
  private Optional<Versioned<A>> alreadyApplied(I id, Optional<String> commandId) {
    if (commandId.isEmpty() || layout().findCommand(definition, id, commandId.get()).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(versioned(loadExisting(id)));
  }

  /**
   * One page of events, one {@code events} operation for the listener; a stream that is not stored fails
   * the operation, as it fails a {@code load}.
   */
  private EventPage<E> readEventPage(I id, long fromSeqNr, long toSeqNr) {
    return record("events", attempts -> layout().readEvents(definition, id, fromSeqNr, toSeqNr)
        .orElseThrow(() -> new AggregateNotFoundException(definition.name(), idString(id))));
  }

  /**
   * The last seq_nr of the page starting at {@code fromSeqNr}: {@value #EVENT_PAGE_SIZE} seq_nrs on, or
   * {@code Long.MAX_VALUE} rather than wrapping around to negative seq_nrs.
   */
  private static long pageEnd(long fromSeqNr) {
    return fromSeqNr > Long.MAX_VALUE - EVENT_PAGE_SIZE + 1 ? Long.MAX_VALUE : fromSeqNr + EVENT_PAGE_SIZE - 1;
  }

  /** Walks a stream's events page by page, up to the last seq_nr the first page saw. */
  private final class PagedEvents implements Iterator<RecordedEvent<E>> {
    private final I id;
    private final long lastSeqNr;
    private Iterator<RecordedEvent<E>> page;
    private long nextSeqNr;

    PagedEvents(I id, EventPage<E> first, long fromSeqNr) {
      this.id = id;
      this.lastSeqNr = first.lastSeqNr();
      this.page = first.events().iterator();
      this.nextSeqNr = pageEnd(fromSeqNr) + 1;
    }

    /**
     * A page covers the stored seq_nrs it asked for, up to the stream's end, however many events they
     * stand for now: a split stored event gives several, a dropped one none. So the next page starts
     * after the last seq_nr asked for, not after the events received, and a page left empty by dropped
     * events does not end the history.
     */
    @Override
    public boolean hasNext() {
      // nextSeqNr > 0: past Long.MAX_VALUE it wrapped, and no stream reaches that far
      while (!page.hasNext() && nextSeqNr > 0 && nextSeqNr <= lastSeqNr) {
        long to = Math.min(lastSeqNr, pageEnd(nextSeqNr));
        page = readEventPage(id, nextSeqNr, to).events().iterator();
        nextSeqNr = to + 1;
      }
      return page.hasNext();
    }

    @Override
    public RecordedEvent<E> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return page.next();
    }
  }

  private static StoreInternals internals(EventStore store) {
    return StoreAccess.internals(store).orElseThrow(() -> new IllegalArgumentException(store.getClass().getName()
        + " is not a store esgen made: create one with DynamoDbEventStore.create(client, config)"));
  }

  private <T> T record(String operation, Function<OperationRecorder.Attempts, T> body) {
    return store.recorder().record(definition.name(), operation, body);
  }

  /** The stream as stored now: a strongly consistent load, remembered in the cache. */
  private LoadedStream<A> loadExisting(I id) {
    return loadExisting(id, Optional.empty());
  }

  /**
   * The stream as stored now after an append on {@code refused} lost its version. The refusal made the
   * cache drop {@code refused}, yet a version names one state of the stream, so with the cache on the load
   * folds on from it as from any remembered state, and reads only what was appended since.
   */
  private LoadedStream<A> reloadAfterConflict(I id, LoadedStream<A> refused) {
    return loadExisting(id, Optional.of(refused));
  }

  /**
   * A strongly consistent load, remembered in the cache, folded on from what the cache remembers or, with
   * the cache on and nothing remembered, from {@code fallback}.
   */
  private LoadedStream<A> loadExisting(I id, Optional<LoadedStream<A>> fallback) {
    long since = cache().now();
    Optional<LoadedStream<A>> remembered = cache().findById(definition, id);
    Optional<LoadedStream<A>> start = remembered.isEmpty() && cache().enabled() ? fallback : remembered;
    LoadedStream<A> loaded = existing(id, layout().load(definition, id, ReadConsistency.STRONG, start));
    cache().remember(definition, idString(id), loaded, since);
    return loaded;
  }

  /** The stream read as {@code options} say: from the cache if they allow and it has it, else loaded and remembered. */
  private Optional<LoadedStream<A>> read(I id, ReadOptions options) {
    Arguments.required(definition, options, "the read options are null");
    Optional<LoadedStream<A>> cached = cachedWithin(id, options);
    if (cached.isPresent()) {
      return cached;
    }
    long since = cache().now();
    Optional<LoadedStream<A>> loaded = loadStored(id, consistency(options));
    loaded.ifPresent(stream -> cache().remember(definition, idString(id), stream, since));
    return loaded;
  }

  /**
   * The stream as stored, read with {@code consistency}; the layout folds on from what the cache remembers
   * of it where that saves reading and decoding (the same result either way).
   */
  private Optional<LoadedStream<A>> loadStored(I id, ReadConsistency consistency) {
    Optional<LoadedStream<A>> remembered = cache().findById(definition, id);
    return layout().load(definition, id, consistency, remembered);
  }

  private Optional<LoadedStream<A>> cachedWithin(I id, ReadOptions options) {
    return options.maxCachedAge().isZero()
        ? Optional.empty()
        : cache().find(definition, idString(id), options.maxCachedAge());
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

  private StorageLayout layout() {
    return store.layoutFor(definition);
  }

  private String idString(I id) {
    return definition.keys().idString(id);
  }

  private Versioned<A> versioned(LoadedStream<A> stream) {
    return new Versioned<>(stream, definition);
  }
}
