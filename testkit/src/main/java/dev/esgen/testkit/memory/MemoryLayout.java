package dev.esgen.testkit.memory;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AppendRejectedException;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.command.CommandAlreadyAppliedException;
import dev.esgen.runtime.internal.command.CommandRecord;
import dev.esgen.runtime.internal.index.IndexBackfill;
import dev.esgen.runtime.internal.index.IndexChanges;
import dev.esgen.runtime.internal.index.SlotIndexQuery;
import dev.esgen.runtime.internal.journal.MisplacedHeadRow;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.query.Cursors;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.EventPage;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.ShardedListing;
import dev.esgen.runtime.internal.storage.StorageLayout;
import dev.esgen.runtime.internal.storage.StoredFold;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.testkit.memory.StoredData.CommandKey;
import dev.esgen.testkit.memory.StoredData.StreamType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntPredicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The storage layout of the in-memory store, one instance per DynamoDB layout it stands in for. It keeps
 * streams in {@link StoredData} and follows the storage contract of {@link StorageLayout} as DynamoDB's
 * layouts do: events are stored in their codec's form and decoded on every read; an append is checked
 * against the layout's size limits, then, in one step under the data's monitor, against the version, the
 * command record and the unique values, in the order DynamoDB's cancellation reasons are read, and stored
 * whole or not at all; a snapshot left out for its size is reported only once the append is stored.
 * Lookups page with the same cursors, sorted as DynamoDB sorts keys.
 */
final class MemoryLayout implements StorageLayout {

  private final LayoutKind kind;
  private final LayoutRules rules;
  private final StoredData data;
  private final Clock clock;
  private final OperationRecorder recorder;

  MemoryLayout(LayoutKind kind, StoredData data, Clock clock, OperationRecorder recorder) {
    this.kind = kind;
    this.rules = kind == LayoutKind.TIP ? new TipRules() : new JournalRules();
    this.data = data;
    this.clock = clock;
    this.recorder = recorder;
  }

  @Override
  public <A, I, E> Optional<LoadedStream<A>> load(AggregateDefinition<A, I, E> definition, I id) {
    return load(definition, id, ReadConsistency.STRONG, Optional.empty());
  }

  /**
   * As DynamoDB's layouts: where {@code remembered} (the state cache's entry) is no further back than the
   * usable snapshot and not past the stream's end, the fold goes on from it, and what lies before it is
   * neither decoded nor folded again; every read here is strongly consistent.
   */
  @Override
  public <A, I, E> Optional<LoadedStream<A>> load(AggregateDefinition<A, I, E> definition, I id,
      ReadConsistency consistency, Optional<LoadedStream<A>> remembered) {
    String aid = definition.keys().idString(id);
    StreamCopy copy;
    synchronized (data) {
      StoredStream stream = data.stream(type(definition), partition(definition, aid), aid);
      if (stream == null) {
        return Optional.empty();
      }
      copy = stream.copy(definition.snapshotCodec().fingerprint());
    }
    return Optional.of(fold(definition, copy, remembered));
  }

  @Override
  public <A, I, E> LoadedStream<A> append(AppendRequest<A, I, E> request) {
    AggregateDefinition<A, I, E> definition = request.definition();
    String name = definition.name();
    String aid = definition.keys().idString(request.id());
    MemoryPosition position = request.current().map(current -> position(current, name))
        .orElse(MemoryPosition.initial(kind));
    Instant now = clock.instant();
    // In the order the layout finds problems, so that an append with two is refused for the same one.
    IndexChanges changes = rules.indexChangesFirst() ? indexChanges(request) : null;
    List<KeptEvent> events = new ArrayList<>(request.events().size());
    for (E event : request.events()) {
      String type = definition.eventCodec().typeName(event);
      KeptEvent kept = new KeptEvent(type, definition.eventCodec().version(event),
          Codecs.encodeEvent(definition, aid, type, event), now, request.metadata());
      rules.checkEncoded(request, aid, events.size(), kept);
      events.add(kept);
    }
    if (changes == null) {
      changes = indexChanges(request);
    }
    PlannedAppend plan = rules.plan(request, aid, events, changes, position,
        request.creating() ? 0 : untouchedSlotBytes(definition, aid, changes));
    long version = request.expectedVersion() + 1;
    long lastSeqNr = request.baseSeqNr() + events.size();
    synchronized (data) {
      StoredStream stream = data.stream(type(definition), partition(definition, aid), aid);
      CommandKey command = request.commandId().map(commandId -> new CommandKey(name, aid, commandId)).orElse(null);
      if (command != null && data.command(command) != null) {
        throw new CommandAlreadyAppliedException(name, aid, command.commandId());
      }
      if (request.creating() && stream != null) {
        throw new AggregateAlreadyExistsException(name, aid, OptionalLong.of(stream.version()));
      }
      if (!request.creating() && (stream == null || stream.version() != request.expectedVersion())) {
        throw new VersionConflictException(name, aid, request.expectedVersion(), versionOf(stream), 1);
      }
      for (IndexChanges.UniqueChange reservation : changes.reservations()) {
        String holder = data.holder(reservation.key());
        if (holder != null && !holder.equals(aid)) {
          throw new DuplicateValueException(name, reservation.column().name(), reservation.value(),
              Optional.of(holder));
        }
      }
      for (IndexChanges.UniqueChange release : changes.releases()) {
        String holder = data.holder(release.key());
        if (holder != null && !holder.equals(aid)) {
          throw new AppendRejectedException(name, aid, List.of("release of " + release.column().name()
              + ": the value is reserved by another aggregate, see docs/index-columns.md"), null);
        }
      }
      StoredStream target = stream != null ? stream : createStream(definition, aid);
      target.append(events, plan, definition.snapshotCodec().fingerprint());
      writeSlots(target, changes);
      changes.reservations().forEach(reservation -> data.reserve(reservation.key(), aid));
      changes.releases().forEach(release -> data.release(release.key(), aid));
      if (command != null) {
        data.record(command, new CommandRecord(command.commandId(), version, lastSeqNr, request.appendId(), now));
      }
      data.appended(type(definition), aid);
    }
    // Once stored, as DynamoDB's layouts report it, and outside the monitor: the listener may read the store.
    plan.stored(recorder);
    return new LoadedStream<>(request.newState(), version, lastSeqNr, plan.next());
  }

  /**
   * Stores a new stream {@code aid} of {@code events} as they are, in one append, at the clock's time and
   * without metadata, snapshot or index values.
   *
   * @throws AggregateAlreadyExistsException when the stream exists
   */
  <A, I, E> void seed(AggregateDefinition<A, I, E> definition, String aid, List<StoredEvent> events) {
    Instant now = clock.instant();
    List<KeptEvent> kept = events.stream()
        .map(event -> new KeptEvent(event.type(), event.version(), event.body(), now, EventMetadata.none()))
        .toList();
    synchronized (data) {
      StoredStream stream = data.stream(type(definition), partition(definition, aid), aid);
      if (stream != null) {
        throw new AggregateAlreadyExistsException(definition.name(), aid, OptionalLong.of(stream.version()));
      }
      PlannedAppend asItIs = new PlannedAppend(null, false, MemoryPosition.initial(kind), Optional.empty());
      createStream(definition, aid).append(kept, asItIs, definition.snapshotCodec().fingerprint());
      data.appended(type(definition), aid);
    }
  }

  @Override
  public <A, I, E> Optional<CommandRecord> findCommand(AggregateDefinition<A, I, E> definition, I id,
      String commandId) {
    CommandKey key = new CommandKey(definition.name(), definition.keys().idString(id), commandId);
    synchronized (data) {
      return Optional.ofNullable(data.command(key));
    }
  }

  @Override
  public <A, I, E> Optional<EventPage<E>> readEvents(
      AggregateDefinition<A, I, E> definition, I id, long fromSeqNr, long toSeqNr) {
    String aid = definition.keys().idString(id);
    List<KeptEvent> slice;
    long lastSeqNr;
    long from = Math.max(1, fromSeqNr);
    synchronized (data) {
      StoredStream stream = data.stream(type(definition), partition(definition, aid), aid);
      if (stream == null) {
        return Optional.empty();
      }
      lastSeqNr = stream.lastSeqNr();
      slice = stream.events(from, Math.min(toSeqNr, lastSeqNr));
    }
    List<RecordedEvent<E>> events = new ArrayList<>(slice.size());
    for (int i = 0; i < slice.size(); i++) {
      events.addAll(Codecs.recorded(definition, aid, from + i, slice.get(i)));
    }
    return Optional.of(new EventPage<>(events, lastSeqNr));
  }

  @Override
  public <A, I, E> Map<I, LoadedStream<A>> loadAll(AggregateDefinition<A, I, E> definition, Collection<I> ids) {
    return loadAll(definition, ids, ReadConsistency.STRONG, Map.of());
  }

  /** Each stream as {@link #load(AggregateDefinition, Object, ReadConsistency, Optional)} reads it. */
  @Override
  public <A, I, E> Map<I, LoadedStream<A>> loadAll(AggregateDefinition<A, I, E> definition, Collection<I> ids,
      ReadConsistency consistency, Map<I, LoadedStream<A>> remembered) {
    Map<String, I> byAid = new LinkedHashMap<>();
    for (I id : ids) {
      byAid.putIfAbsent(definition.keys().idString(Objects.requireNonNull(id, "id")), id);
    }
    Map<I, LoadedStream<A>> loaded = new LinkedHashMap<>();
    byAid.forEach((aid, id) -> load(definition, id, consistency, Optional.ofNullable(remembered.get(id)))
        .ifPresent(stream -> loaded.put(id, stream)));
    return loaded;
  }

  /**
   * Shard by shard (0 first), each shard in the order its layout lists: see {@link LayoutRules#listingKey}.
   * Cursors keep the last listing key in the attribute the layout's DynamoDB cursors keep it in.
   */
  @Override
  public <A, I, E> Page<LoadedStream<A>> listAll(AggregateDefinition<A, I, E> definition, PageRequest page) {
    String name = definition.name();
    List<List<String>> shards = new ArrayList<>();
    for (int shard = 0; shard < definition.shards(); shard++) {
      shards.add(new ArrayList<>());
    }
    Map<String, String> aids = new HashMap<>();
    Set<String> misplaced = new HashSet<>();
    synchronized (data) {
      for (StoredStream stream : data.streams(type(definition))) {
        // Listed in the shard it was created in, as its head row's partition or its tip's listing key keeps
        // it: after a change of the shard count, one beyond the new count is reached by no query.
        if (stream.shard() >= definition.shards()) {
          continue;
        }
        String key = rules.listingKey(name, stream.aid());
        aids.put(key, stream.aid());
        shards.get(stream.shard()).add(key);
        if (kind == LayoutKind.JOURNAL && stream.shard() != partition(definition, stream.aid())) {
          misplaced.add(stream.shard() + "/" + key);
        }
      }
    }
    shards.forEach(keys -> keys.sort(Utf8Order.INSTANCE));
    String attribute = rules.listingAttribute();
    ShardedListing listing = new ShardedListing(name, definition.shards(), new ListingPositions(attribute));
    Page<Map<String, AttributeValue>> listed = listing.page(page, (shard, start, limit) -> {
      QueryResponse response =
          query(shards.get(shard), attribute, start == null ? null : start.get(attribute).s(), limit);
      for (Map<String, AttributeValue> item : response.items()) {
        if (misplaced.contains(shard + "/" + item.get(attribute).s())) {
          throw notInItsPartition(definition, aids.get(item.get(attribute).s()), shard);
        }
      }
      return response;
    });
    List<I> ids = listed.items().stream()
        .map(item -> definition.keys().parseId(aids.get(item.get(attribute).s())))
        .toList();
    return new Page<>(List.copyOf(loadAll(definition, ids).values()), listed.nextCursor());
  }

  @Override
  public <A, I, E> Optional<I> findUnique(AggregateDefinition<A, I, E> definition, IndexColumn column, String value) {
    String key = IndexKeys.valueKey(definition.name(), column.name(), column.normalize(value));
    synchronized (data) {
      return Optional.ofNullable(data.holder(key)).map(definition.keys()::parseId);
    }
  }

  /** The ids whose slot holds the value, by id in UTF-8 order, as the slot's global secondary index sorts them. */
  @Override
  public <A, I, E> Page<I> findIndexed(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, PageRequest page) {
    int slot = definition.indexColumns().slotOf(column);
    String valueKey = IndexKeys.valueKey(definition.name(), column.name(), value);
    Cursors cursors = Cursors.listBy(definition.name(), column.name(), value);
    String after = page.cursor().map(cursor -> cursors.decode(cursor, SlotIndexQuery::aid)).orElse(null);
    List<String> holding = new ArrayList<>();
    synchronized (data) {
      for (StoredStream stream : data.streams(type(definition))) {
        if (valueKey.equals(stream.slot(slot))) {
          holding.add(stream.aid());
        }
      }
    }
    holding.sort(Utf8Order.INSTANCE);
    QueryResponse response = query(holding, IndexKeys.AID, after, page.size());
    List<I> ids = response.items().stream()
        .map(item -> definition.keys().parseId(item.get(IndexKeys.AID).s()))
        .toList();
    return new Page<>(ids, SlotIndexQuery.hasMore(response)
        ? Optional.of(cursors.encode(SlotIndexQuery.position(response.lastEvaluatedKey())))
        : Optional.empty());
  }

  /**
   * As DynamoDB's layouts: the journal writes nothing, and checks nothing, for an aggregate without index
   * values; otherwise every slot and every reservation of the state is written, conditioned on the version.
   */
  @Override
  public <A, I, E> void reindex(AggregateDefinition<A, I, E> definition, LoadedStream<A> loaded) {
    String name = definition.name();
    String aid = definition.keys().idString(definition.keys().idOf(loaded.state()));
    IndexChanges all = IndexBackfill.of(name, definition.indexColumns(), loaded.state());
    if (kind == LayoutKind.JOURNAL && all.slots().isEmpty() && all.reservations().isEmpty()) {
      return;
    }
    rules.checkReindex(definition, aid, loaded, untouchedSlotBytes(definition, aid, all));
    synchronized (data) {
      StoredStream stream = data.stream(type(definition), partition(definition, aid), aid);
      if (stream == null || stream.version() != loaded.version()) {
        throw new VersionConflictException(name, aid, loaded.version(), versionOf(stream), 1);
      }
      for (IndexChanges.UniqueChange reservation : all.reservations()) {
        String holder = data.holder(reservation.key());
        if (holder != null && !holder.equals(aid)) {
          throw new DuplicateValueException(name, reservation.column().name(), reservation.value(),
              Optional.of(holder));
        }
      }
      writeSlots(stream, all);
      all.reservations().forEach(reservation -> data.reserve(reservation.key(), aid));
    }
  }

  /**
   * The stream in {@code copy}: its snapshot, decoded, with the events after it folded on, each stored
   * event as the events it stands for now; or, where {@code remembered} may be folded on from (see
   * {@link LoadedStream#canResumeFold}), that state with the events after it.
   */
  private <A, I, E> LoadedStream<A> fold(AggregateDefinition<A, I, E> definition, StreamCopy copy,
      Optional<LoadedStream<A>> remembered) {
    A state;
    long seqNr;
    if (remembered.isPresent()
        && remembered.get().canResumeFold(copy.snapshotSeqNr(), copy.lastSeqNr(), copy.version())) {
      state = remembered.get().state();
      seqNr = remembered.get().seqNr();
    } else {
      state = copy.snapshot() == null
          ? null
          : Codecs.decodeSnapshot(definition, copy.aid(), copy.snapshotSeqNr(), copy.snapshot());
      seqNr = copy.snapshotSeqNr();
    }
    List<KeptEvent> after = copy.eventsAfterSnapshot();
    for (KeptEvent stored : after.subList((int) (seqNr - copy.snapshotSeqNr()), after.size())) {
      for (E event : Codecs.decodeEvent(definition, copy.aid(), ++seqNr, stored)) {
        state = StoredFold.step(definition, state, event, copy.aid(), seqNr, stored.type());
      }
    }
    if (state == null) {
      throw new CorruptStreamException(definition.name(), copy.aid(),
          "no stored event stands for a creating event any more (upcasters dropped them all)");
    }
    return new LoadedStream<>(state, copy.version(), copy.lastSeqNr(), copy.position());
  }

  /**
   * One page of a key list sorted in UTF-8 order after {@code after}, each key in an item's
   * {@code attribute}, as a DynamoDB query with a limit answers: a last-evaluated key whenever the page is
   * full, even when nothing follows.
   */
  private static QueryResponse query(List<String> sorted, String attribute, String after, int limit) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    for (String key : sorted) {
      if (items.size() == limit) {
        break;
      }
      if (after == null || Utf8Order.INSTANCE.compare(key, after) > 0) {
        items.add(Map.of(attribute, AttributeValue.fromS(key)));
      }
    }
    QueryResponse.Builder response = QueryResponse.builder().items(items);
    if (items.size() == limit) {
      response.lastEvaluatedKey(items.get(items.size() - 1));
    }
    return response.build();
  }

  private static <A, I, E> IndexChanges indexChanges(AppendRequest<A, I, E> request) {
    AggregateDefinition<A, I, E> definition = request.definition();
    return IndexChanges.between(definition.name(), definition.indexColumns(),
        request.current().map(LoadedStream::state), request.newState());
  }

  private static void writeSlots(StoredStream stream, IndexChanges changes) {
    for (IndexChanges.SlotChange slot : changes.slots()) {
      stream.slot(slot.slot(), slot.key().orElse(null));
    }
  }

  /**
   * What the stored item of {@code aid} that carries its version keeps in index slots that a write with
   * {@code changes} (whose values are the new state's) neither sets nor removes: the slots of columns dropped since
   * (docs/index-columns.md), or one a reordering of columns left without a value before a reindex. DynamoDB's
   * updates leave them in place, and count them in the item's size.
   */
  private long untouchedSlotBytes(AggregateDefinition<?, ?, ?> definition, String aid, IndexChanges changes) {
    List<IndexColumn> slotted = definition.indexColumns().slotted();
    Map<String, String> values = changes.values();
    Set<Integer> removed = new HashSet<>();
    changes.slots().stream().filter(slot -> slot.key().isEmpty()).forEach(slot -> removed.add(slot.slot()));
    IntPredicate untouched = slot -> slot >= slotted.size()
        || (values.get(slotted.get(slot).name()) == null && !removed.contains(slot));
    synchronized (data) {
      StoredStream stream = data.stream(type(definition), partition(definition, aid), aid);
      return stream == null ? 0 : stream.slotBytes(untouched);
    }
  }

  /**
   * Where the stream {@code aid} of {@code definition} is kept: on the journal the shard its shard count puts
   * the id in, as every journal key holds it; on the tip, whose keys hold no shard, 0.
   */
  private int partition(AggregateDefinition<?, ?, ?> definition, String aid) {
    return kind == LayoutKind.JOURNAL ? TipKeys.shard(aid, definition.shards()) : 0;
  }

  /**
   * A new stream {@code aid} of {@code definition}, kept where {@link #partition} says, in the shard its count
   * gives.
   */
  private StoredStream createStream(AggregateDefinition<?, ?, ?> definition, String aid) {
    return data.create(type(definition), partition(definition, aid), TipKeys.shard(aid, definition.shards()), aid);
  }

  /**
   * As the journal layout's listing reports a head row it meets in another partition than the definition's
   * shard count puts it in (JournalIndexReader#inItsPartition).
   */
  private static CorruptStreamException notInItsPartition(AggregateDefinition<?, ?, ?> definition, String aid,
      int storedShard) {
    return MisplacedHeadRow.error(definition, aid, definition.name() + "-" + storedShard,
        new JournalKeys(definition.name(), definition.shards()).partitionKey(aid));
  }

  private StreamType type(AggregateDefinition<?, ?, ?> definition) {
    return new StreamType(kind, definition.name());
  }

  private MemoryPosition position(LoadedStream<?> current, String aggregateName) {
    if (current.position() instanceof MemoryPosition position && position.layout() == kind) {
      return position;
    }
    throw new IllegalArgumentException("aggregate " + aggregateName + ": the in-memory store's "
        + kind.name().toLowerCase(Locale.ROOT) + " layout cannot append to a stream another store or"
        + " layout loaded (" + current.position().getClass().getName() + ")");
  }

  private static OptionalLong versionOf(StoredStream stream) {
    return stream == null ? OptionalLong.empty() : OptionalLong.of(stream.version());
  }

  /**
   * Listing cursors keep the last listing key read in one attribute, and take back only a position in it
   * that DynamoDB would take as a range key.
   */
  private record ListingPositions(String attribute) implements ShardedListing.Positions {

    @Override
    public Map<String, AttributeValue> position(Map<String, AttributeValue> lastEvaluatedKey) {
      return Map.of(attribute, lastEvaluatedKey.get(attribute));
    }

    @Override
    public Optional<Map<String, AttributeValue>> startKey(int shard, Map<String, AttributeValue> position) {
      AttributeValue key = position.get(attribute);
      return position.size() == 1 && key != null && SlotIndexQuery.isRangeKey(key.s())
          ? Optional.of(Map.of(attribute, key))
          : Optional.empty();
    }
  }
}
