package dev.esgen.runtime.internal.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.internal.storage.LoadedStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a store remembers of the streams it read and wrote: each stream's {@link LoadedStream} (state,
 * version, seq_nr, layout position) with the time its read or write began, in a Caffeine cache bounded by the
 * {@link StateCachePolicy}'s size and age. Safe to share between threads and repositories.
 *
 * <p>An entry is only ever replaced by one of a higher version, or of the same version read or written
 * later, so a slow reader never puts an older state over a newer one a writer just stored. A version
 * identifies one state of one stream (only one append can win each version), so an entry is never wrong,
 * only possibly out of date: callers append on it conditioned on its version, and a stale entry costs a
 * rejected write, never a lost or doubled event. A state is what one definition's code folded, so each
 * definition of an aggregate remembers its own: two repositories of a store with other event codecs,
 * replays or snapshot fingerprints for the same aggregate name (old and new code side by side during a
 * migration) never see each other's states.
 *
 * <pre>{@code
 * StateCache cache = StateCache.of(StateCachePolicy.of(10_000, Duration.ofMinutes(5)), Clock.systemUTC());
 * cache.remember(definition, aid, stored, since);                // after an append or a load begun at since
 * Optional<LoadedStream<BankAccount>> hit = cache.find(definition, aid, policyAge);
 * cache.forgetUpTo(definition, aid, request.expectedVersion());  // after a failed append
 * }</pre>
 */
public final class StateCache {

  private static final StateCache DISABLED = new StateCache(null, Clock.systemUTC());

  /**
   * Which stream, folded by which code: layouts keep different positions, and the journal's keys depend
   * on the shard count, so a stream name is unique per layout and shard count only; the classes of the
   * event codec (upcasters included) and the replay, and the snapshot fingerprint (the state's shape and
   * handlers, for generated code), tell apart definitions that would fold the same events differently.
   */
  private record Key(LayoutKind layout, int shards, String aggregateName, String aid, Class<?> eventCodec,
      Class<?> replay, String fingerprint) {}

  private record Entry(LoadedStream<?> stream, long rememberedAtMillis) {}

  private final Cache<Key, Entry> entries;
  private final Clock clock;

  private StateCache(Cache<Key, Entry> entries, Clock clock) {
    this.entries = entries;
    this.clock = clock;
  }

  /**
   * A cache as {@code policy} says, ageing entries by {@code clock}; one that keeps nothing when the
   * policy is disabled.
   */
  public static StateCache of(StateCachePolicy policy, Clock clock) {
    Objects.requireNonNull(clock, "clock");
    if (!policy.enabled()) {
      return DISABLED;
    }
    long maxAgeMillis = policy.maxAge().toMillis();
    // An entry lives maxAge from when its stream was remembered. Not expireAfterWrite: Caffeine counts a
    // merge that keeps the newer entry, or a forget that keeps it, as a write and would start its age again.
    Cache<Key, Entry> entries = Caffeine.newBuilder()
        .maximumSize(policy.maxStreams())
        .expireAfter(Expiry.writing((Key key, Entry entry) ->
            Duration.ofMillis(Math.max(0, maxAgeMillis - (clock.millis() - entry.rememberedAtMillis())))))
        .ticker(() -> clock.millis() * 1_000_000L)
        .build();
    return new StateCache(entries, clock);
  }

  /** A cache that keeps nothing. */
  public static StateCache disabled() {
    return DISABLED;
  }

  /** Whether this cache keeps anything. */
  public boolean enabled() {
    return entries != null;
  }

  /** The remembered stream of {@code aid}, however old (within the policy's age). */
  public <A> Optional<LoadedStream<A>> find(AggregateDefinition<A, ?, ?> definition, String aid) {
    return find(definition, aid, null);
  }

  /**
   * The remembered stream of {@code id}, however old (within the policy's age); its id string is built
   * only when this cache keeps anything.
   */
  public <A, I> Optional<LoadedStream<A>> findById(AggregateDefinition<A, I, ?> definition, I id) {
    Objects.requireNonNull(id, () -> definition.name() + ": the id is null");
    return entries == null ? Optional.empty() : find(definition, definition.keys().idString(id));
  }

  /** The remembered streams of those of {@code ids} this cache holds, by id. */
  public <A, I> Map<I, LoadedStream<A>> findEach(AggregateDefinition<A, I, ?> definition, Collection<I> ids) {
    if (entries == null) {
      return Map.of();
    }
    Map<I, LoadedStream<A>> found = new HashMap<>();
    for (I id : ids) {
      findById(definition, id).ifPresent(stream -> found.put(id, stream));
    }
    return found;
  }

  /** The remembered stream of {@code aid} if the read or write that produced it began at most {@code maxAge} ago. */
  public <A> Optional<LoadedStream<A>> find(AggregateDefinition<A, ?, ?> definition, String aid, Duration maxAge) {
    if (entries == null) {
      return Optional.empty();
    }
    Entry entry = entries.getIfPresent(key(definition, aid));
    if (entry == null || (maxAge != null && !within(entry, maxAge))) {
      return Optional.empty();
    }
    return typed(definition, entry.stream());
  }

  /**
   * Whether {@code entry} was remembered at most {@code maxAge} ago. After the clock stepped back its age
   * is unknown, and it is not.
   */
  private boolean within(Entry entry, Duration maxAge) {
    long age = clock.millis() - entry.rememberedAtMillis();
    // Compared as Durations: ReadOptions takes any non-negative one, and toMillis() overflows past
    // Long.MAX_VALUE milliseconds (ChronoUnit.FOREVER, "whatever the cache holds").
    return age >= 0 && Duration.ofMillis(age).compareTo(maxAge) <= 0;
  }

  /**
   * The remembered stream of {@code aid} if it is at a version after {@code version}: written since by a
   * writer of this store, after an append on {@code version} was refused.
   */
  public <A> Optional<LoadedStream<A>> findNewerThan(AggregateDefinition<A, ?, ?> definition, String aid, long version) {
    return find(definition, aid).filter(stream -> stream.version() > version);
  }

  /**
   * The time by this cache's clock, in milliseconds: taken before a read or write whose stream will be
   * {@linkplain #remember remembered}, so that the stream's age counts from before it was read or written.
   */
  public long now() {
    return clock.millis();
  }

  /**
   * Remembers {@code stream} as the current one of {@code aid}, as of {@code sinceMillis} (a {@link #now()}
   * taken before it was read or written: the read or write may take long, resends and read-backs included,
   * and another writer may have moved the stream on meanwhile), unless a newer version is remembered.
   */
  public <A> void remember(AggregateDefinition<A, ?, ?> definition, String aid, LoadedStream<A> stream,
      long sinceMillis) {
    if (entries == null) {
      return;
    }
    Entry fresh = new Entry(stream, sinceMillis);
    entries.asMap().merge(key(definition, aid), fresh, (old, candidate) ->
        candidate.stream().version() > old.stream().version()
            || (candidate.stream().version() == old.stream().version()
                && candidate.rememberedAtMillis() >= old.rememberedAtMillis())
            ? candidate : old);
  }

  /**
   * Forgets the stream of {@code aid} if what is remembered is at {@code version} or older: after an
   * append on that version failed or ended with an unknown outcome, so it is stale or may be.
   */
  public void forgetUpTo(AggregateDefinition<?, ?, ?> definition, String aid, long version) {
    if (entries == null) {
      return;
    }
    entries.asMap().computeIfPresent(key(definition, aid),
        (key, entry) -> entry.stream().version() <= version ? null : entry);
  }

  /**
   * Whether a state {@code one}'s code folded is what {@code other}'s code folds: the same stream in the same
   * layout, folded by the same event codec, replay and snapshot fingerprint, as this cache tells definitions
   * apart.
   */
  public static boolean foldsAlike(AggregateDefinition<?, ?, ?> one, AggregateDefinition<?, ?, ?> other) {
    return one == other || key(one, "").equals(key(other, ""));
  }

  private static Key key(AggregateDefinition<?, ?, ?> definition, String aid) {
    return new Key(definition.layout(), definition.shards(), definition.name(), aid,
        definition.eventCodec().getClass(), definition.replay().getClass(), definition.snapshotCodec().fingerprint());
  }

  /** The entry as a stream of the definition's type; none when another type was stored under its name. */
  @SuppressWarnings("unchecked")
  private static <A> Optional<LoadedStream<A>> typed(AggregateDefinition<A, ?, ?> definition, LoadedStream<?> stream) {
    return definition.aggregateType().isInstance(stream.state())
        ? Optional.of((LoadedStream<A>) stream)
        : Optional.empty();
  }
}
