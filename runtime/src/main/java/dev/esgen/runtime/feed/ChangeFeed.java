package dev.esgen.runtime.feed;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.internal.feed.DeliveryRounds;
import dev.esgen.runtime.internal.feed.FeedReporter;
import dev.esgen.runtime.internal.feed.OfferedEvents;
import dev.esgen.runtime.internal.feed.PositionKey;
import dev.esgen.runtime.internal.feed.PositionStore;
import dev.esgen.runtime.internal.feed.ProjectionNames;
import dev.esgen.runtime.internal.feed.StreamDeliverer;
import dev.esgen.runtime.internal.feed.StreamLocks;
import dev.esgen.runtime.internal.feed.StreamRecordDecoder;
import dev.esgen.runtime.internal.feed.Subscription;
import dev.esgen.runtime.internal.feed.TableReplay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Delivers the events appended to an {@link EventStore} to projections: each stream's events in seq_nr
 * order, with no gap and no duplicate, from DynamoDB Streams records of the journal and tip tables that
 * a transport hands to {@link #handle}, and from the tables themselves by {@link #replay}.
 *
 * <p>A projection has a name and one handler per aggregate type it follows. For each stream it keeps a
 * position, the seq_nr of the last event it took, in the store's positions table
 * ({@link StoreConfig#positionsTable()}, created by
 * {@link dev.esgen.runtime.provision.TableProvisioner#enableChangeFeed()}). Events at or below the
 * position are dropped; when a record's event lies further ahead than the next one (its predecessor's
 * record is late, lost, or older than the stream's 24 hours), the events in between are read from the
 * store first, consistently. A {@link Projection} takes each event at least once; a
 * {@link TransactionalProjection} exactly once, its DynamoDB writes committed with the position. A
 * failing handler stops its stream, is retried with backoff and reported to the {@link FeedListener};
 * the stream's later events wait for it, other streams go on. See {@code docs/projections.md}.
 *
 * <p>A feed is safe to share between threads; two deliveries of one stream within it never run at once.
 *
 * <pre>{@code
 * ChangeFeed feed = ChangeFeed.builder(store)
 *     .projection("statements", accounts.definition(), event -> statements.add(event))
 *     .transactionalProjection("balances", accounts.definition(), balances::writes)
 *     .build();
 * feed.replay("balances");                       // a new projection catches up with the tables ...
 * feed.handle(shardId, records);                 // ... and a transport hands it every batch of records
 * }</pre>
 */
public final class ChangeFeed implements StreamRecordsHandler {

  /** Handler retries by default: 5 attempts, pauses from 100 ms doubling up to 2 s, 30 s in all. */
  public static final RetryPolicy DEFAULT_RETRY_POLICY =
      new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofSeconds(30));

  /** Scan segments a replay divides each table into by default. */
  public static final int DEFAULT_REPLAY_SEGMENTS = 4;

  /**
   * Threads a replay reads its segments on by default: as many as the default segments of both tables, so
   * that all of them are read at once.
   */
  public static final int DEFAULT_REPLAY_THREADS = 8;

  private final Map<String, List<Subscription<?, ?, ?>>> byAggregate;
  private final Map<String, List<Subscription<?, ?, ?>>> byProjection;
  private final StreamRecordDecoder decoder;
  private final PositionStore positions;
  private final DeliveryRounds rounds;
  private final TableReplay replay;

  private ChangeFeed(Builder builder) {
    StoreInternals store = builder.store;
    this.byAggregate = copy(builder.byAggregate);
    this.byProjection = copy(builder.byProjection);
    this.decoder = new StreamRecordDecoder(byAggregate::containsKey);
    this.positions = new PositionStore(store.client(), store.config().positionsTable(), store.config().clock(),
        store.recorder()::currentBudget);
    FeedReporter reporter = new FeedReporter(builder.listener);
    this.rounds = new DeliveryRounds(new StreamDeliverer(store, positions, reporter), positions, new StreamLocks(),
        builder.retryPolicy, reporter);
    this.replay =
        new TableReplay(store.client(), store.config(), rounds, builder.replaySegments, builder.replayThreads);
  }

  /** Starts a feed of {@code store}'s events; register at least one projection. */
  public static Builder builder(EventStore store) {
    return new Builder(store);
  }

  /**
   * Delivers the events of {@code records} to every projection that follows their aggregate types.
   * Records of other aggregate types and of items that are no events (snapshots, reservations, command
   * records, removals) are skipped. Returns when every event is delivered or was seen before.
   *
   * @throws dev.esgen.runtime.error.StreamRecordDecodingException before delivering anything, when a
   *     record of a followed aggregate type is not an event item esgen writes
   * @throws dev.esgen.runtime.error.ProjectionFailedException when a stream's event could not be
   *     delivered within the retry policy; the other streams' events were delivered, and sending the
   *     same records again delivers the rest
   */
  @Override
  public void handle(String shardId, List<Record> records) {
    OfferedEvents offered = new OfferedEvents();
    for (Record record : records) {
      decoder.decode(record).ifPresent(offered::add);
    }
    if (!offered.isEmpty()) {
      rounds.run(offered.deliveries(this::subscriptionsOf));
    }
  }

  /**
   * Delivers to {@code projection} every event stored for its aggregate types that it has not taken:
   * how a new or reset projection catches up with the past, and how any projection catches up after the
   * stream records of an outage longer than 24 hours were trimmed. Reads the journal and tip tables in
   * segments with a strongly consistent {@code Scan}, several segments at once (see
   * {@link Builder#replaySegments} and {@link Builder#replayThreads}), and may run while the live feed
   * runs: the positions keep each event to one delivery.
   *
   * <pre>{@code
   * feed.reset("balances");
   * ReplayReport report = feed.replay("balances");
   * }</pre>
   *
   * @throws IllegalArgumentException when no projection of that name is registered
   * @throws dev.esgen.runtime.error.ProjectionFailedException when an event could not be delivered; the
   *     events before it are recorded, and a replay started again goes on from there
   */
  public ReplayReport replay(String projection) {
    return replay.replay(projection, subscriptionsNamed(projection));
  }

  /**
   * Deletes every position of {@code projection}, so that the next {@link #replay} (or the live feed)
   * delivers every stored event to it again: clear the projection's read model first. Returns how many
   * positions there were. Deleting is one request per position; giving the rebuilt projection a new
   * name starts it from nothing at no cost (the old positions can be deleted later).
   *
   * @throws IllegalArgumentException when no projection of that name is registered
   */
  public long reset(String projection) {
    subscriptionsNamed(projection);
    return positions.deleteAll(projection);
  }

  /**
   * The seq_nr of the last event of the stream {@code id} that {@code projection} took; 0 when none.
   *
   * <pre>{@code
   * long upTo = feed.position("balances", accounts.definition(), id);
   * boolean seesDeposit = upTo >= deposited.seqNr();     // deposited: the Versioned the append returned
   * }</pre>
   *
   * @throws IllegalArgumentException when {@code projection} does not follow {@code definition}'s type in this
   *     feed; nothing is read
   */
  public <I> long position(String projection, AggregateDefinition<?, I, ?> definition, I id) {
    // A misspelt name would otherwise read 0 for ever, as if the projection had taken nothing.
    boolean follows = byProjection.getOrDefault(projection, List.of()).stream()
        .anyMatch(s -> s.definition().name().equals(definition.name()));
    if (!follows) {
      throw new IllegalArgumentException(
          "projection '" + projection + "' does not follow " + definition.name() + " in this feed");
    }
    return positions.read(PositionKey.of(projection, definition.name(), definition.keys().idString(id)));
  }

  /** The names of the registered projections. */
  public Set<String> projections() {
    return byProjection.keySet();
  }

  private List<Subscription<?, ?, ?>> subscriptionsOf(String aggregateName) {
    return byAggregate.getOrDefault(aggregateName, List.of());
  }

  private List<Subscription<?, ?, ?>> subscriptionsNamed(String projection) {
    List<Subscription<?, ?, ?>> subscriptions = byProjection.get(projection);
    if (subscriptions == null) {
      throw new IllegalArgumentException("no projection '" + projection + "' is registered; this feed has "
          + byProjection.keySet());
    }
    return subscriptions;
  }

  private static Map<String, List<Subscription<?, ?, ?>>> copy(Map<String, List<Subscription<?, ?, ?>>> map) {
    Map<String, List<Subscription<?, ?, ?>>> copy = new LinkedHashMap<>();
    map.forEach((name, subscriptions) -> copy.put(name, List.copyOf(subscriptions)));
    return Collections.unmodifiableMap(copy);
  }

  /**
   * Registers projections and settings of a {@link ChangeFeed}. A projection following several
   * aggregate types is registered once per type under the same name.
   *
   * <pre>{@code
   * ChangeFeed feed = ChangeFeed.builder(store)
   *     .projection("activity", accounts.definition(), e -> activity.record(e))
   *     .projection("activity", transfers.definition(), e -> activity.record(e))
   *     .retryPolicy(new RetryPolicy(10, Duration.ofMillis(200), Duration.ofSeconds(5), Duration.ofMinutes(1)))
   *     .listener(alerts)
   *     .build();
   * }</pre>
   */
  public static final class Builder {

    /** The most threads a replay may run on: each is a platform thread of its own. */
    private static final int MAX_REPLAY_THREADS = 256;

    private final StoreInternals store;
    private final Map<String, List<Subscription<?, ?, ?>>> byAggregate = new LinkedHashMap<>();
    private final Map<String, List<Subscription<?, ?, ?>>> byProjection = new LinkedHashMap<>();
    private RetryPolicy retryPolicy = DEFAULT_RETRY_POLICY;
    private FeedListener listener = FeedListener.NONE;
    private int replaySegments = DEFAULT_REPLAY_SEGMENTS;
    private int replayThreads = DEFAULT_REPLAY_THREADS;

    private Builder(EventStore store) {
      this.store = StoreAccess.internals(Objects.requireNonNull(store, "store")).orElseThrow(() ->
          new IllegalArgumentException("a change feed needs one of esgen's stores, not " + store.getClass().getName()));
    }

    /**
     * {@code projection}, named {@code name}, takes the events of {@code definition}'s aggregate type at
     * least once.
     *
     * @param name 1 to 128 letters, digits, {@code .}, {@code _} or {@code -}, starting with a letter or
     *     digit; stored with every position, so renaming a projection starts it from nothing
     * @throws IllegalArgumentException when the name is not one, or {@code name} already follows this
     *     aggregate type
     */
    public <E> Builder projection(String name, AggregateDefinition<?, ?, E> definition, Projection<E> projection) {
      return add(Subscription.atLeastOnce(ProjectionNames.checked(name), definition, projection));
    }

    /**
     * {@code projection}, named {@code name}, takes the events of {@code definition}'s aggregate type
     * exactly once: the writes it returns for an event are committed with its position in one transaction.
     *
     * @throws IllegalArgumentException as {@link #projection}
     */
    public <E> Builder transactionalProjection(
        String name, AggregateDefinition<?, ?, E> definition, TransactionalProjection<E> projection) {
      return add(Subscription.exactlyOnce(ProjectionNames.checked(name), definition, projection));
    }

    /**
     * How often and how long a failing event is tried before {@code handle} throws;
     * {@link #DEFAULT_RETRY_POLICY} by default. Keep the deadline well inside the transport's own time
     * limit (a Lambda function's timeout), so that the feed gives up before it is cut off.
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Hears about failed deliveries and gaps read; {@link FeedListener#NONE} by default. */
    public Builder listener(FeedListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * How many scan segments a replay divides each table into; {@value #DEFAULT_REPLAY_SEGMENTS} by default.
     * A segment is a part of a table that one {@code Scan} reads page by page from its start to its end, on
     * one thread; all items of a stream are in one segment. Segments are not threads: the segments of all
     * the tables a replay reads are shared out among at most {@link #replayThreads} threads, each reading
     * one segment after the other. Only as many segments as threads are read at once, but smaller segments
     * share the work out more evenly: a thread that is done with one takes the next. A journal aggregate
     * type's events are in at most its {@code shards} segments (its partition key values).
     *
     * @param segments 1 to 1,000,000, DynamoDB's limit
     * @throws IllegalArgumentException when {@code segments} is outside that range
     */
    public Builder replaySegments(int segments) {
      if (segments < 1 || segments > 1_000_000) {
        throw new IllegalArgumentException(
            "replay segments must be 1 to 1,000,000 (DynamoDB's limit), was " + segments);
      }
      this.replaySegments = segments;
      return this;
    }

    /**
     * At most how many threads a replay reads segments on at once; {@value #DEFAULT_REPLAY_THREADS} by
     * default. A replay starts as many as it has segments to read, up to this number, and ends them when it
     * returns; each reads one segment at a time, then takes the next one not yet read. A thread waits on
     * one request at a time, so threads beyond the DynamoDB client's connection pool (50 connections in
     * the SDK's Apache HTTP client by default) only wait for a connection.
     *
     * <pre>{@code
     * ChangeFeed.builder(store).projection("balances", accounts.definition(), balances)
     *     .replaySegments(1_000)      // small parts ...
     *     .replayThreads(16)          // ... read 16 at a time
     *     .build();
     * }</pre>
     *
     * @param threads 1 to 256
     * @throws IllegalArgumentException when {@code threads} is outside that range
     */
    public Builder replayThreads(int threads) {
      if (threads < 1 || threads > MAX_REPLAY_THREADS) {
        throw new IllegalArgumentException(
            "replay threads must be 1 to " + MAX_REPLAY_THREADS + ", was " + threads);
      }
      this.replayThreads = threads;
      return this;
    }

    /** @throws IllegalStateException when no projection was registered */
    public ChangeFeed build() {
      if (byProjection.isEmpty()) {
        throw new IllegalStateException("a change feed needs at least one projection");
      }
      return new ChangeFeed(this);
    }

    private Builder add(Subscription<?, ?, ?> subscription) {
      String aggregate = subscription.definition().name();
      List<Subscription<?, ?, ?>> named =
          byProjection.computeIfAbsent(subscription.projection(), n -> new ArrayList<>());
      if (named.stream().anyMatch(s -> s.definition().name().equals(aggregate))) {
        throw new IllegalArgumentException("projection '" + subscription.projection() + "' already follows "
            + aggregate + "; register one handler per aggregate type");
      }
      named.add(subscription);
      byAggregate.computeIfAbsent(aggregate, a -> new ArrayList<>()).add(subscription);
      return this;
    }
  }
}
