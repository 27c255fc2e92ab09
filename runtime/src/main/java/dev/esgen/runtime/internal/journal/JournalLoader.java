package dev.esgen.runtime.internal.journal;

import static dev.esgen.runtime.internal.journal.JournalAttributes.AID;
import static dev.esgen.runtime.internal.journal.JournalAttributes.LAST_SEQ_NR;
import static dev.esgen.runtime.internal.journal.JournalAttributes.PAYLOAD;
import static dev.esgen.runtime.internal.journal.JournalAttributes.PKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.RETAINED_SEQ_NRS;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SEQ_NR;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SNAPSHOT_SCHEMA;
import static dev.esgen.runtime.internal.journal.JournalAttributes.VERSION;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.SnapshotDecodingException;
import dev.esgen.runtime.error.StaleSnapshotException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.item.ConsistentBatchReader;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.EventPage;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.SnapshotFingerprint;
import dev.esgen.runtime.internal.storage.StoredFold;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Reads a stream: the head row, then the events after its snapshot; strongly consistent unless a caller
 * asks for eventually consistent reads, which cost half the read units.
 */
final class JournalLoader {

  private final DynamoDbClient client;
  private final StoreConfig config;
  private final ConsistentBatchReader headReader;

  JournalLoader(DynamoDbClient client, StoreConfig config, OperationRecorder recorder) {
    this.client = client;
    this.config = config;
    this.headReader = new ConsistentBatchReader(client, config.snapshotTable(), recorder::currentBudget);
  }

  /**
   * The stream of {@code id}, empty when none is stored: its head row, then the events after its snapshot,
   * or after {@code remembered} where that is nearer the end (see {@link #foldFrom}).
   */
  <A, I, E> Optional<LoadedStream<A>> load(
      AggregateDefinition<A, I, E> definition, I id, boolean consistent, Optional<LoadedStream<A>> remembered) {
    String aid = definition.keys().idString(id);
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    Map<String, AttributeValue> head = readHead(keys, aid, consistent);
    if (head.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(fromHead(definition, keys, aid, head, consistent, remembered));
  }

  /**
   * Events {@code fromSeqNr} to {@code toSeqNr} of the stream: the head row says where the stream ends,
   * then one consistent range query (paginated by DynamoDB's 1 MB pages) reads the slice.
   */
  <A, I, E> Optional<EventPage<E>> readEvents(
      AggregateDefinition<A, I, E> definition, I id, long fromSeqNr, long toSeqNr) {
    String aid = definition.keys().idString(id);
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    Map<String, AttributeValue> head = readHead(keys, aid, true);
    if (head.isEmpty()) {
      return Optional.empty();
    }
    long lastSeqNr = headNumber(definition, aid, head, LAST_SEQ_NR);
    long to = Math.min(toSeqNr, lastSeqNr);
    List<RecordedEvent<E>> events = new ArrayList<>();
    if (fromSeqNr <= to) {
      forEachEvent(definition, keys, aid, fromSeqNr, to, true,
          (seqNr, item) -> events.addAll(JournalEvents.recorded(definition, item)));
    }
    return Optional.of(new EventPage<>(events, lastSeqNr));
  }

  /**
   * The streams of {@code ids} that exist: their head rows by {@code BatchGetItem} (strongly consistent
   * if {@code consistent}, 100 keys per call, unprocessed keys asked for again as
   * {@link ConsistentBatchReader} says), then a journal query only for each stream whose snapshot is older
   * than its last event and that {@code remembered} does not hold at its end (see {@link #foldFrom}). The
   * map follows the order of {@code ids}.
   */
  <A, I, E> Map<I, LoadedStream<A>> loadAll(AggregateDefinition<A, I, E> definition, Collection<I> ids,
      boolean consistent, Map<I, LoadedStream<A>> remembered) {
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    Map<String, I> byAid = byAid(definition, ids);
    Map<String, Map<String, AttributeValue>> heads = new HashMap<>();
    for (Map<String, AttributeValue> head : headReader.read(headKeys(keys, byAid.keySet()), consistent)) {
      heads.put(head.get(AID).s(), head);
    }
    Map<I, LoadedStream<A>> loaded = new LinkedHashMap<>();
    byAid.forEach((aid, id) -> {
      Map<String, AttributeValue> head = heads.get(aid);
      if (head != null) {
        loaded.put(id, fromHead(definition, keys, aid, head, consistent, Optional.ofNullable(remembered.get(id))));
      }
    });
    return loaded;
  }

  /** {@code ids} by their id strings, each once, in the order of {@code ids}. */
  static <I> Map<String, I> byAid(AggregateDefinition<?, I, ?> definition, Collection<I> ids) {
    Map<String, I> byAid = new LinkedHashMap<>();
    for (I id : ids) {
      byAid.putIfAbsent(definition.keys().idString(Objects.requireNonNull(id, "id")), id);
    }
    return byAid;
  }

  /** The keys of the head rows of the streams {@code aids}. */
  static List<Map<String, AttributeValue>> headKeys(JournalKeys keys, Collection<String> aids) {
    List<Map<String, AttributeValue>> headKeys = new ArrayList<>();
    for (String aid : aids) {
      headKeys.add(Map.of(
          PKEY, AttributeValue.fromS(keys.partitionKey(aid)),
          SKEY, AttributeValue.fromS(keys.headSortKey(aid))));
    }
    return headKeys;
  }

  /**
   * The stream whose head row is {@code head}: its snapshot (or {@code remembered}, as {@link #foldFrom}
   * says) plus, when behind, the events after it, read strongly consistent if {@code consistent}. A
   * snapshot written by other code (another fingerprint) is not even decoded: the state is folded from
   * the first event, and the position asks the next append for a fresh snapshot.
   *
   * @throws StaleSnapshotException when such a snapshot cannot be rebuilt because events are missing
   */
  <A, I, E> LoadedStream<A> fromHead(AggregateDefinition<A, I, E> definition, JournalKeys keys, String aid,
      Map<String, AttributeValue> head, boolean consistent, Optional<LoadedStream<A>> remembered) {
    HeadFold<A, E> fold = foldFrom(definition, aid, head, remembered);
    if (fold.needsEvents()) {
      try {
        forEachEvent(definition, keys, aid, fold.from(), fold.to(), consistent, fold);
      } catch (CorruptStreamException missing) {
        throw fold.missing(missing);
      }
    }
    return fold.finish();
  }

  /**
   * Starts folding the stream whose head row is {@code head}: checks the row and decodes its snapshot,
   * unless it is stale. The events after the snapshot, {@link HeadFold#from()} to {@link HeadFold#to()},
   * are then visited in order, and {@link HeadFold#finish()} gives the stream.
   *
   * <p>{@code remembered} is a state this store folded earlier (the state cache's), at seq_nr {@code n}.
   * Events are never rewritten, so it is the stream's state at {@code n} whatever was appended since.
   * When {@code n} is at or after the usable snapshot and not after the last event, the fold starts from
   * it instead: the snapshot is not decoded, only events {@code n + 1} onwards are read, and none when
   * nothing was appended since.
   */
  static <A, I, E> HeadFold<A, E> foldFrom(AggregateDefinition<A, I, E> definition, String aid,
      Map<String, AttributeValue> head, Optional<LoadedStream<A>> remembered) {
    long snapshotSeqNr = headNumber(definition, aid, head, SEQ_NR);
    long lastSeqNr = headNumber(definition, aid, head, LAST_SEQ_NR);
    long version = headNumber(definition, aid, head, VERSION);
    AttributeValue payload = head.get(PAYLOAD);
    boolean hasSnapshot = payload != null && payload.b() != null;
    if ((!hasSnapshot && snapshotSeqNr != 0) || lastSeqNr < snapshotSeqNr) {
      throw new CorruptStreamException(definition.name(), aid, "the snapshot head row " + head.keySet()
          + " lacks a binary " + PAYLOAD + " or has " + LAST_SEQ_NR + " below " + SEQ_NR);
    }
    boolean stale = hasSnapshot && !SnapshotFingerprint.matches(definition, head.get(SNAPSHOT_SCHEMA));
    // Without a usable snapshot (the first one was too large to store, or it is stale) the state is
    // folded from the first event.
    boolean usable = hasSnapshot && !stale;
    long snapshotFolded = usable ? snapshotSeqNr : 0;
    JournalPosition position = new JournalPosition(snapshotSeqNr, retained(head), stale, ItemSize.ofEach(head));
    if (remembered.isPresent() && remembered.get().canResumeFold(snapshotFolded, lastSeqNr, version)) {
      LoadedStream<A> start = remembered.get();
      return new HeadFold<>(definition, aid, start.state(), start.seqNr(), lastSeqNr, version, hasSnapshot, stale,
          position);
    }
    A state = usable ? decodeSnapshot(definition, aid, snapshotSeqNr, payload.b().asByteArrayUnsafe()) : null;
    return new HeadFold<>(definition, aid, state, snapshotFolded, lastSeqNr, version, hasSnapshot, stale, position);
  }

  /** A stream being folded from its head row: the snapshot, then each event after it, in seq_nr order. */
  static final class HeadFold<A, E> implements ItemVisitor {
    private final AggregateDefinition<A, ?, E> definition;
    private final String aid;
    private final long folded;
    private final long lastSeqNr;
    private final long version;
    private final boolean hasSnapshot;
    private final boolean stale;
    private final JournalPosition position;
    private A state;

    private HeadFold(AggregateDefinition<A, ?, E> definition, String aid, A state, long folded, long lastSeqNr,
        long version, boolean hasSnapshot, boolean stale, JournalPosition position) {
      this.definition = definition;
      this.aid = aid;
      this.state = state;
      this.folded = folded;
      this.lastSeqNr = lastSeqNr;
      this.version = version;
      this.hasSnapshot = hasSnapshot;
      this.stale = stale;
      this.position = position;
    }

    /** Whether events follow the snapshot (or there is no usable one). */
    boolean needsEvents() {
      return lastSeqNr > folded;
    }

    long from() {
      return folded + 1;
    }

    long to() {
      return lastSeqNr;
    }

    @Override
    public void visit(long seqNr, Map<String, AttributeValue> item) {
      for (E event : JournalEvents.events(definition, aid, seqNr, item)) {
        state = StoredFold.step(definition, state, event, aid, seqNr, item.get(JournalAttributes.EVENT_TYPE).s());
      }
    }

    /** The error for events found missing: a stale snapshot that cannot be rebuilt says so. */
    RuntimeException missing(CorruptStreamException missing) {
      return stale ? new StaleSnapshotException(definition.name(), aid, position.snapshotSeqNr(), missing) : missing;
    }

    LoadedStream<A> finish() {
      if (state == null) {
        throw new CorruptStreamException(definition.name(), aid, hasSnapshot || lastSeqNr > 0
            ? "no stored event stands for a creating event any more (upcasters dropped them all)"
            : "the head row has neither a snapshot nor events");
      }
      return new LoadedStream<>(state, version, lastSeqNr, position);
    }
  }

  private Map<String, AttributeValue> readHead(JournalKeys keys, String aid, boolean consistent) {
    try {
      GetItemResponse response = client.getItem(headRequest(config, keys, aid, consistent));
      return response.hasItem() ? response.item() : Map.of();
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.snapshotTable()), e);
    }
  }

  /** The read of stream {@code aid}'s head row. */
  static GetItemRequest headRequest(StoreConfig config, JournalKeys keys, String aid, boolean consistent) {
    return GetItemRequest.builder()
        .tableName(config.snapshotTable())
        .key(Map.of(
            PKEY, AttributeValue.fromS(keys.partitionKey(aid)),
            SKEY, AttributeValue.fromS(keys.headSortKey(aid))))
        .consistentRead(consistent)
        .build();
  }
  private static long headNumber(
      AggregateDefinition<?, ?, ?> definition, String aid, Map<String, AttributeValue> head, String attribute) {
    AttributeValue value = head.get(attribute);
    if (value == null || value.n() == null) {
      throw new CorruptStreamException(
          definition.name(), aid, "the snapshot head row has no numeric " + attribute + " attribute");
    }
    return Long.parseLong(value.n());
  }

  private static <A> A decodeSnapshot(
      AggregateDefinition<A, ?, ?> definition, String aid, long seqNr, byte[] payload) {
    try {
      return definition.snapshotCodec().decode(payload);
    } catch (IOException | RuntimeException e) {
      throw new SnapshotDecodingException(definition.name(), aid, seqNr, e);
    }
  }

  /** What to do with each journal item of a range, in seq_nr order. */
  @FunctionalInterface
  interface ItemVisitor {
    void visit(long seqNr, Map<String, AttributeValue> item);
  }

  /**
   * Visits the journal items {@code from .. to} of the stream in order, read with a range query through
   * every page (consistent if {@code consistent}), and checks that none is missing. An eventually
   * consistent query may end before {@code to} although the head row (another item, maybe read from a
   * fresher replica) says the events exist: the rest is then read again with strong consistency, so a
   * state never lacks events its version stands for.
   */
  private void forEachEvent(AggregateDefinition<?, ?, ?> definition, JournalKeys keys, String aid, long from,
      long to, boolean consistent, ItemVisitor visitor) {
    EventRange range = eventRange(config, definition, keys, aid, from, to, consistent, visitor);
    Optional<QueryRequest> page = Optional.of(range.firstPage());
    while (page.isPresent()) {
      page = range.visit(query(page.get()));
    }
    if (range.readAgainStrongly()) {
      forEachEvent(definition, keys, aid, range.expected(), to, true, visitor);
      return;
    }
    range.checkComplete();
  }

  /** The range query of events {@code from .. to}, visiting each with {@code visitor} as its pages come. */
  static EventRange eventRange(StoreConfig config, AggregateDefinition<?, ?, ?> definition, JournalKeys keys,
      String aid, long from, long to, boolean consistent, ItemVisitor visitor) {
    QueryRequest.Builder query = QueryRequest.builder()
        .tableName(config.journalTable())
        .keyConditionExpression("#pkey = :pkey AND #skey BETWEEN :from AND :to")
        .expressionAttributeNames(Map.of("#pkey", PKEY, "#skey", SKEY))
        .expressionAttributeValues(Map.of(
            ":pkey", AttributeValue.fromS(keys.partitionKey(aid)),
            ":from", AttributeValue.fromS(keys.sortKey(aid, from)),
            ":to", AttributeValue.fromS(keys.sortKey(aid, to))))
        .consistentRead(consistent);
    return new EventRange(definition, aid, query, from, to, consistent, visitor);
  }

  /**
   * One range query of a stream's events, page by page: hands out the request of each page and checks
   * and visits the items of each response. Sends nothing itself, so the synchronous and the asynchronous
   * loads page through the same checks.
   */
  static final class EventRange {
    private final AggregateDefinition<?, ?, ?> definition;
    private final String aid;
    private final QueryRequest.Builder query;
    private final long to;
    private final boolean consistent;
    private final ItemVisitor visitor;
    private long expected;

    private EventRange(AggregateDefinition<?, ?, ?> definition, String aid, QueryRequest.Builder query, long from,
        long to, boolean consistent, ItemVisitor visitor) {
      this.definition = definition;
      this.aid = aid;
      this.query = query;
      this.expected = from;
      this.to = to;
      this.consistent = consistent;
      this.visitor = visitor;
    }

    QueryRequest firstPage() {
      return query.exclusiveStartKey(null).build();
    }

    /** Visits the items of {@code page}; returns the request of the next page, empty after the last. */
    Optional<QueryRequest> visit(QueryResponse page) {
      for (Map<String, AttributeValue> item : page.items()) {
        // Another stream's sort keys can fall in this range when its id starts with this id followed by
        // "-" and digits; the aid attribute tells them apart.
        if (!aid.equals(item.get(AID).s())) {
          continue;
        }
        long seqNr = Long.parseLong(item.get(SEQ_NR).n());
        if (seqNr != expected) {
          throw new CorruptStreamException(
              definition.name(), aid, "expected event " + expected + " in the journal, found " + seqNr);
        }
        visitor.visit(seqNr, item);
        expected++;
      }
      return page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
          ? Optional.of(query.exclusiveStartKey(page.lastEvaluatedKey()).build())
          : Optional.empty();
    }

    /** The seq_nr of the next event expected. */
    long expected() {
      return expected;
    }

    /** Whether an eventually consistent read ended short: the rest is to be read from {@link #expected()} strongly. */
    boolean readAgainStrongly() {
      return !consistent && expected <= to;
    }

    /** @throws CorruptStreamException when the range ended before the event the head row says is last */
    void checkComplete() {
      if (expected - 1 != to) {
        throw new CorruptStreamException(definition.name(), aid, "the head row says the stream reaches event " + to
            + " but the journal holds events only up to " + (expected - 1));
      }
    }
  }

  private QueryResponse query(QueryRequest request) {
    try {
      return client.query(request);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.journalTable()), e);
    }
  }

  private static List<Long> retained(Map<String, AttributeValue> head) {
    AttributeValue list = head.get(RETAINED_SEQ_NRS);
    if (list == null || !list.hasL()) {
      return List.of();
    }
    return list.l().stream().map(v -> Long.parseLong(v.n())).toList();
  }
}
