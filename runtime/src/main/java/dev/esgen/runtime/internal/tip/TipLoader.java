package dev.esgen.runtime.internal.tip;

import static dev.esgen.runtime.internal.tip.TipAttributes.CASES;
import static dev.esgen.runtime.internal.tip.TipAttributes.DATA;
import static dev.esgen.runtime.internal.tip.TipAttributes.EVENTS;
import static dev.esgen.runtime.internal.tip.TipAttributes.INDEX;
import static dev.esgen.runtime.internal.tip.TipAttributes.NEXT;
import static dev.esgen.runtime.internal.tip.TipAttributes.SCHEMA;
import static dev.esgen.runtime.internal.tip.TipAttributes.STREAM;
import static dev.esgen.runtime.internal.tip.TipAttributes.UNFOLD;
import static dev.esgen.runtime.internal.tip.TipAttributes.VERSION;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.SnapshotDecodingException;
import dev.esgen.runtime.error.StaleSnapshotException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.item.ConsistentBatchReader;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.storage.EventPage;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.SnapshotFingerprint;
import dev.esgen.runtime.internal.storage.StoredFold;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Reads a stream of the tip layout: the tip, and the calved batches only when its snapshot does not cover
 * them. The tip is read strongly consistent unless a caller asks otherwise (half the read units; an
 * eventually consistent read returns an older tip whole, never part of one); batches are always read
 * strongly consistent, so that every batch an older or newer tip names is found.
 *
 * <p>The read of a tip ({@link #tipRequest}) and the fold of a stream from it ({@link TipFold}) send
 * nothing, so this loader and {@link AsyncTipLayout} share them.
 */
final class TipLoader {

  private final DynamoDbClient client;
  private final StoreConfig config;
  private final ConsistentBatchReader tipReader;

  TipLoader(DynamoDbClient client, StoreConfig config, OperationRecorder recorder) {
    this.client = client;
    this.config = config;
    this.tipReader = new ConsistentBatchReader(client, config.tipTable(), recorder::currentBudget);
  }

  /**
   * The stream of {@code id}, empty when none is stored: its tip, and the batches only when neither its
   * snapshot nor {@code remembered} covers them (see {@link TipFold}).
   */
  <A, I, E> Optional<LoadedStream<A>> load(
      AggregateDefinition<A, I, E> definition, I id, boolean consistent, Optional<LoadedStream<A>> remembered) {
    String aid = definition.keys().idString(id);
    String stream = new TipKeys(definition.name()).streamName(aid);
    Map<String, AttributeValue> tip = readTip(stream, consistent);
    if (tip.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(fromTip(definition, aid, tip, remembered));
  }

  /**
   * Events {@code fromSeqNr} to {@code toSeqNr} of the stream: the tip says where the stream ends and
   * holds the newest events; older ones come from the batches, read oldest first from the one holding
   * {@code fromSeqNr} (found with one descending query) up to the tip's first event.
   */
  <A, I, E> Optional<EventPage<E>> readEvents(
      AggregateDefinition<A, I, E> definition, I id, long fromSeqNr, long toSeqNr) {
    String aid = definition.keys().idString(id);
    String stream = new TipKeys(definition.name()).streamName(aid);
    Map<String, AttributeValue> tip = readTip(stream, true);
    if (tip.isEmpty()) {
      return Optional.empty();
    }
    long next = number(definition, aid, tip, NEXT, "tip");
    List<AttributeValue> tipEvents = list(definition, aid, tip, EVENTS, "tip");
    List<AttributeValue> tipCases = list(definition, aid, tip, CASES, "tip");
    // The check a load makes of the tip (TipFold), so the history calls such a tip corrupt as loads do.
    long base = checkedBase(definition.name(), aid, tipEvents, tipCases, next);
    long to = Math.min(toSeqNr, next);
    List<RecordedEvent<E>> events = new ArrayList<>();
    if (fromSeqNr <= to && fromSeqNr <= base) {
      for (Batch batch : batchesForward(definition, aid, stream, fromSeqNr - 1, Math.min(to, base))) {
        events.addAll(TipEvents.recorded(definition, aid, batch.first(), batch.events(), batch.cases(), fromSeqNr, to));
      }
    }
    if (to > base) {
      events.addAll(TipEvents.recorded(definition, aid, base, tipEvents, tipCases, fromSeqNr, to));
    }
    return Optional.of(new EventPage<>(events, next));
  }

  /**
   * The batches holding the events with indexes {@code fromIndex .. toSeqNr - 1}, oldest first: the batch
   * holding {@code fromIndex} (the last one keyed at or below it), then forward until {@code toSeqNr}.
   */
  private List<Batch> batchesForward(
      AggregateDefinition<?, ?, ?> definition, String aid, String stream, long fromIndex, long toSeqNr) {
    QueryResponse holding = query(QueryRequest.builder()
        .tableName(config.tipTable())
        .keyConditionExpression("#p = :p AND #i <= :from")
        .expressionAttributeNames(Map.of("#p", STREAM, "#i", INDEX))
        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream), ":from", index(fromIndex)))
        .scanIndexForward(false)
        .limit(1)
        .consistentRead(true)
        .build());
    if (holding.items().isEmpty()) {
      throw new CorruptStreamException(definition.name(), aid, "event " + (fromIndex + 1)
          + " is in neither the tip nor a batch");
    }
    long start = number(definition, aid, holding.items().get(0), INDEX, "batch");
    QueryRequest.Builder query = QueryRequest.builder()
        .tableName(config.tipTable())
        .keyConditionExpression("#p = :p AND #i BETWEEN :start AND :last")
        .expressionAttributeNames(Map.of("#p", STREAM, "#i", INDEX))
        .expressionAttributeValues(Map.of(
            ":p", AttributeValue.fromS(stream), ":start", index(start), ":last", index(toSeqNr - 1)))
        .consistentRead(true);
    List<Batch> batches = new ArrayList<>();
    long expected = start;
    Map<String, AttributeValue> startKey = null;
    do {
      QueryResponse page = query(query.exclusiveStartKey(startKey).build());
      for (Map<String, AttributeValue> item : page.items()) {
        long first = number(definition, aid, item, INDEX, "batch");
        long next = number(definition, aid, item, NEXT, "batch");
        List<AttributeValue> events = list(definition, aid, item, EVENTS, "batch");
        List<AttributeValue> cases = list(definition, aid, item, CASES, "batch");
        if (first != expected || next != first + events.size() || events.size() != cases.size()) {
          throw new CorruptStreamException(definition.name(), aid, "expected a batch starting at event " + expected
              + ", found one of " + events.size() + " events keyed " + first + " ending at " + next);
        }
        batches.add(new Batch(first, events, cases));
        expected = next;
      }
      startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (startKey != null);
    if (expected < toSeqNr) {
      throw new CorruptStreamException(definition.name(), aid,
          "events " + (expected + 1) + " to " + toSeqNr + " are in neither the tip nor a batch");
    }
    return batches;
  }

  /**
   * The streams of {@code ids} that exist: their tips by {@code BatchGetItem} (strongly consistent if
   * {@code consistent}, 100 keys per call, unprocessed keys asked for again as {@link ConsistentBatchReader}
   * says), then the batches only of events-only streams whose tip does not hold every event after the
   * state {@code remembered} holds of them, if any. The map follows the order of {@code ids}, each id once.
   */
  <A, I, E> Map<I, LoadedStream<A>> loadAll(AggregateDefinition<A, I, E> definition, Collection<I> ids,
      boolean consistent, Map<I, LoadedStream<A>> remembered) {
    Map<String, I> byStream = byStream(definition, ids);
    Map<String, Map<String, AttributeValue>> tips = byStream(tipReader.read(tipKeys(byStream), consistent));
    Map<I, LoadedStream<A>> loaded = new LinkedHashMap<>();
    byStream.forEach((stream, id) -> {
      Map<String, AttributeValue> tip = tips.get(stream);
      if (tip != null) {
        Optional<LoadedStream<A>> start = Optional.ofNullable(remembered.get(id));
        loaded.put(id, fromTip(definition, definition.keys().idString(id), tip, start));
      }
    });
    return loaded;
  }

  /**
   * Each of {@code ids} once, in their order, keyed by stream name rather than by the tip's aid
   * attribute, which older tips may lack.
   */
  static <I> Map<String, I> byStream(AggregateDefinition<?, I, ?> definition, Collection<I> ids) {
    TipKeys keys = new TipKeys(definition.name());
    Map<String, I> byStream = new LinkedHashMap<>();
    for (I id : ids) {
      byStream.putIfAbsent(keys.streamName(definition.keys().idString(Objects.requireNonNull(id, "id"))), id);
    }
    return byStream;
  }

  /** The table keys of the tips of {@code byStream}'s streams. */
  static List<Map<String, AttributeValue>> tipKeys(Map<String, ?> byStream) {
    List<Map<String, AttributeValue>> tipKeys = new ArrayList<>();
    for (String stream : byStream.keySet()) {
      tipKeys.add(Map.of(STREAM, AttributeValue.fromS(stream), INDEX, index(TipKeys.TIP_INDEX)));
    }
    return tipKeys;
  }

  /** {@code tips} by their stream name. */
  static Map<String, Map<String, AttributeValue>> byStream(List<Map<String, AttributeValue>> tips) {
    Map<String, Map<String, AttributeValue>> found = new HashMap<>();
    for (Map<String, AttributeValue> tip : tips) {
      found.put(tip.get(STREAM).s(), tip);
    }
    return found;
  }

  /**
   * The stream whose tip is {@code tip}: its snapshot, and the batches only when the snapshot needs them.
   *
   * @throws StaleSnapshotException when a snapshot of other code cannot be rebuilt because events are missing
   */
  private <A, I, E> LoadedStream<A> fromTip(AggregateDefinition<A, I, E> definition, String aid,
      Map<String, AttributeValue> tip, Optional<LoadedStream<A>> remembered) {
    TipFold<A, E> fold = foldFrom(config, definition, aid, tip, remembered);
    Optional<QueryRequest> page = fold.firstPage();
    while (page.isPresent()) {
      page = fold.visit(query(page.get()));
    }
    return fold.finish();
  }

  /**
   * The fold of the stream whose tip is {@code tip}, checked and its snapshot decoded (unless it starts
   * from {@code remembered}), before any batch is read.
   */
  static <A, E> TipFold<A, E> foldFrom(StoreConfig config, AggregateDefinition<A, ?, E> definition, String aid,
      Map<String, AttributeValue> tip, Optional<LoadedStream<A>> remembered) {
    return new TipFold<>(config, definition, aid, tip, remembered);
  }

  /**
   * The seq_nr before the first event a tip holds, which says the stream has {@code next} events.
   *
   * @throws CorruptStreamException when the tip's events and types differ in number, or it holds more
   *     events than the stream has
   */
  private static long checkedBase(String aggregateName, String aid, List<AttributeValue> events,
      List<AttributeValue> cases, long next) {
    long base = next - events.size();
    if (events.size() != cases.size() || base < 0 || next < 1) {
      throw new CorruptStreamException(aggregateName, aid, "the tip holds " + events.size() + " events and "
          + cases.size() + " types but says the stream has " + next + " events");
    }
    return base;
  }

  /**
   * One stream's load from its tip, without sending: the snapshot (when its fingerprint matches; a
   * snapshot written by other code is not even decoded, the state is folded from the first event, calved
   * batches included, and the next append rewrites it), then the batches the snapshot does not cover,
   * read newest first and only as far back as needed, then the tip's events. The caller sends each
   * {@link #firstPage()} and {@link #visit} answer, then takes {@link #finish()}.
   *
   * <p>Given the stream as this store last read or wrote it (the state cache's entry) at seq_nr
   * {@code n}, no further back than the usable snapshot and not past the tip's last event, the fold
   * starts from that state instead ({@link LoadedStream#canResumeFold}): the snapshot is not decoded, and
   * only events {@code n + 1} onwards are read and folded.
   *
   * <p>Batches are keyed by their first event's index, all below the tip's first event {@code base}; a
   * batch a concurrent writer calves after the tip was read starts at {@code base} or later and is left
   * out, so the result matches the tip that was read.
   */
  static final class TipFold<A, E> {

    private final AggregateDefinition<A, ?, E> definition;
    private final String aid;
    private final long version;
    private final long next;
    private final long base;
    private final List<AttributeValue> events;
    private final List<AttributeValue> cases;
    /** The size of each of the tip item's attributes, for a reindex to measure what it adds against. */
    private final Map<String, Long> tipAttributeBytes;
    private final long from;
    private final long staleAt;
    private final A snapshot;
    private final StoreConfig config;
    private final String stream;
    private final List<Batch> batches = new ArrayList<>();
    /** The query of batches, built only for a stream whose snapshot does not cover the events before the tip's. */
    private QueryRequest.Builder query;
    private long end;

    private TipFold(StoreConfig config, AggregateDefinition<A, ?, E> definition, String aid,
        Map<String, AttributeValue> tip, Optional<LoadedStream<A>> remembered) {
      this.config = config;
      this.stream = tip.get(STREAM).s();
      this.definition = definition;
      this.aid = aid;
      this.version = number(definition, aid, tip, VERSION, "tip");
      this.next = number(definition, aid, tip, NEXT, "tip");
      this.events = list(definition, aid, tip, EVENTS, "tip");
      this.cases = list(definition, aid, tip, CASES, "tip");
      this.tipAttributeBytes = ItemSize.ofEach(tip);
      this.base = checkedBase(definition.name(), aid, events, cases, next);
      long snapshotAt = 0;
      long stale = 0;
      AttributeValue unfold = tip.get(UNFOLD);
      if (unfold != null && unfold.hasM()) {
        long taken = number(definition, aid, unfold.m(), INDEX, "tip's snapshot");
        if (taken < 1 || taken > next) {
          throw new CorruptStreamException(definition.name(), aid,
              "the tip's snapshot was taken at event " + taken + " of " + next);
        }
        if (SnapshotFingerprint.matches(definition, unfold.m().get(SCHEMA))) {
          snapshotAt = taken;
        } else {
          stale = taken;
        }
      }
      this.staleAt = stale;
      if (remembered.isPresent() && remembered.get().canResumeFold(snapshotAt, next, version)) {
        this.snapshot = remembered.get().state();
        this.from = remembered.get().seqNr();
      } else {
        this.snapshot = snapshotAt > 0 ? decodeSnapshot(definition, aid, snapshotAt, unfold.m().get(DATA)) : null;
        this.from = snapshotAt;
      }
      this.end = base;
    }

    /**
     * The first query of batches, empty when the snapshot covers every event before the tip's. It asks for
     * at most as many batches as there are events to read ({@code base - from}): every batch holds at
     * least one, so no more are needed, and older ones (before a remembered state) are not read and billed.
     */
    Optional<QueryRequest> firstPage() {
      if (from >= base) {
        return Optional.empty();
      }
      query = QueryRequest.builder()
          .tableName(config.tipTable())
          .keyConditionExpression("#p = :p AND #i < :base")
          .expressionAttributeNames(Map.of("#p", STREAM, "#i", INDEX))
          .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(stream), ":base", index(base)))
          .scanIndexForward(false)
          .limit((int) Math.min(base - from, Integer.MAX_VALUE))
          .consistentRead(true);
      return Optional.of(query.build());
    }

    /**
     * Takes one page of batches, newest first; returns the next page to send, empty when the batches
     * reach back to the snapshot.
     *
     * @throws CorruptStreamException when a batch is missing ({@link StaleSnapshotException} when that
     *     leaves a snapshot of other code without a rebuild)
     */
    Optional<QueryRequest> visit(QueryResponse page) {
      for (Map<String, AttributeValue> item : page.items()) {
        long first = checked(() -> number(definition, aid, item, INDEX, "batch"));
        long batchNext = checked(() -> number(definition, aid, item, NEXT, "batch"));
        List<AttributeValue> batchEvents = checked(() -> list(definition, aid, item, EVENTS, "batch"));
        List<AttributeValue> batchCases = checked(() -> list(definition, aid, item, CASES, "batch"));
        if (batchNext != end || first != batchNext - batchEvents.size() || batchEvents.size() != batchCases.size()) {
          throw stale(new CorruptStreamException(definition.name(), aid, "expected a batch ending at event " + end
              + ", found one of " + batchEvents.size() + " events keyed " + first + " ending at " + batchNext));
        }
        batches.add(new Batch(first, batchEvents, batchCases));
        end = first;
        if (end <= from) {
          Collections.reverse(batches);
          return Optional.empty();
        }
      }
      if (page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()) {
        return Optional.of(query.exclusiveStartKey(page.lastEvaluatedKey()).build());
      }
      throw stale(new CorruptStreamException(definition.name(), aid,
          "events " + (from + 1) + " to " + end + " are in neither the tip nor a batch"));
    }

    /** The stream: the snapshot, then the batches read, then the tip's events, folded. */
    LoadedStream<A> finish() {
      A state = snapshot;
      for (Batch batch : batches) {
        state = checked(state, batch);
      }
      state = fold(definition, aid, state, from, base, events, cases);
      if (state == null) {
        throw new CorruptStreamException(definition.name(), aid,
            "no stored event stands for a creating event any more (upcasters dropped them all)");
      }
      return new LoadedStream<>(state, version, next, new TipPosition(events, cases, tipAttributeBytes));
    }

    private A checked(A state, Batch batch) {
      try {
        return fold(definition, aid, state, from, batch.first(), batch.events(), batch.cases());
      } catch (CorruptStreamException missing) {
        throw stale(missing);
      }
    }

    private <T> T checked(Supplier<T> read) {
      try {
        return read.get();
      } catch (CorruptStreamException missing) {
        throw stale(missing);
      }
    }

    private RuntimeException stale(CorruptStreamException missing) {
      return staleAt > 0 ? new StaleSnapshotException(definition.name(), aid, staleAt, missing) : missing;
    }
  }

  /** The strongly consistent or eventually consistent read of {@code stream}'s tip. */
  static GetItemRequest tipRequest(StoreConfig config, String stream, boolean consistent) {
    return GetItemRequest.builder()
        .tableName(config.tipTable())
        .key(Map.of(STREAM, AttributeValue.fromS(stream), INDEX, index(TipKeys.TIP_INDEX)))
        .consistentRead(consistent)
        .build();
  }

  private Map<String, AttributeValue> readTip(String stream, boolean consistent) {
    try {
      GetItemResponse response = client.getItem(tipRequest(config, stream, consistent));
      return response.hasItem() ? response.item() : Map.of();
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.tipTable()), e);
    }
  }

  private QueryResponse query(QueryRequest request) {
    try {
      return client.query(request);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.tipTable()), e);
    }
  }

  /** Folds the events of {@code events} (the first at index {@code first}) whose index is {@code from} or later. */
  private static <A, E> A fold(
      AggregateDefinition<A, ?, E> definition,
      String aid,
      A state,
      long from,
      long first,
      List<AttributeValue> events,
      List<AttributeValue> cases) {
    A folded = state;
    for (int k = (int) Math.max(0, from - first); k < events.size(); k++) {
      long seqNr = first + k + 1;
      for (E event : TipEvents.events(definition, aid, seqNr, cases.get(k), events.get(k))) {
        folded = StoredFold.step(definition, folded, event, aid, seqNr, cases.get(k).s());
      }
    }
    return folded;
  }

  private static <A> A decodeSnapshot(AggregateDefinition<A, ?, ?> definition, String aid, long seqNr, AttributeValue data) {
    try {
      if (data == null || data.b() == null) {
        throw new IOException("the tip's snapshot has no binary " + DATA + " attribute");
      }
      return definition.snapshotCodec().decode(data.b().asByteArrayUnsafe());
    } catch (IOException | RuntimeException e) {
      throw new SnapshotDecodingException(definition.name(), aid, seqNr, e);
    }
  }

  private static long number(
      AggregateDefinition<?, ?, ?> definition, String aid, Map<String, AttributeValue> item, String name, String what) {
    AttributeValue value = item.get(name);
    if (value == null || value.n() == null) {
      throw new CorruptStreamException(definition.name(), aid, "the " + what + " has no numeric " + name + " attribute");
    }
    return Long.parseLong(value.n());
  }

  private static List<AttributeValue> list(
      AggregateDefinition<?, ?, ?> definition, String aid, Map<String, AttributeValue> item, String name, String what) {
    AttributeValue value = item.get(name);
    if (value == null || !value.hasL()) {
      throw new CorruptStreamException(definition.name(), aid, "the " + what + " has no list " + name + " attribute");
    }
    return value.l();
  }

  static AttributeValue index(long index) {
    return AttributeValue.fromN(Long.toString(index));
  }

  private record Batch(long first, List<AttributeValue> events, List<AttributeValue> cases) {}
}
