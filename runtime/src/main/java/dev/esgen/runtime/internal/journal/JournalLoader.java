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

  <A, I, E> Optional<LoadedStream<A>> load(AggregateDefinition<A, I, E> definition, I id, boolean consistent) {
    String aid = definition.keys().idString(id);
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    Map<String, AttributeValue> head = readHead(keys, aid, consistent);
    if (head.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(fromHead(definition, keys, aid, head, consistent));
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
   * if {@code consistent}, 100 keys per call, unprocessed keys retried), then a journal query only for
   * each stream whose snapshot is older than its last event. The map follows the order of {@code ids}.
   */
  <A, I, E> Map<I, LoadedStream<A>> loadAll(
      AggregateDefinition<A, I, E> definition, Collection<I> ids, boolean consistent) {
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    Map<String, I> byAid = new LinkedHashMap<>();
    for (I id : ids) {
      byAid.putIfAbsent(definition.keys().idString(Objects.requireNonNull(id, "id")), id);
    }
    List<Map<String, AttributeValue>> headKeys = new ArrayList<>();
    for (String aid : byAid.keySet()) {
      headKeys.add(Map.of(
          PKEY, AttributeValue.fromS(keys.partitionKey(aid)),
          SKEY, AttributeValue.fromS(keys.headSortKey(aid))));
    }
    Map<String, Map<String, AttributeValue>> heads = new HashMap<>();
    for (Map<String, AttributeValue> head : headReader.read(headKeys, consistent)) {
      heads.put(head.get(AID).s(), head);
    }
    Map<I, LoadedStream<A>> loaded = new LinkedHashMap<>();
    byAid.forEach((aid, id) -> {
      Map<String, AttributeValue> head = heads.get(aid);
      if (head != null) {
        loaded.put(id, fromHead(definition, keys, aid, head, consistent));
      }
    });
    return loaded;
  }

  /**
   * The stream whose head row is {@code head}: its snapshot plus, when behind, the events after it, read
   * strongly consistent if {@code consistent}. A snapshot written by other code (another fingerprint) is
   * not even decoded: the state is folded from the first event, and the position asks the next append
   * for a fresh snapshot.
   *
   * @throws StaleSnapshotException when such a snapshot cannot be rebuilt because events are missing
   */
  <A, I, E> LoadedStream<A> fromHead(AggregateDefinition<A, I, E> definition, JournalKeys keys, String aid,
      Map<String, AttributeValue> head, boolean consistent) {
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
    A state = usable ? decodeSnapshot(definition, aid, snapshotSeqNr, payload.b().asByteArrayUnsafe()) : null;
    long folded = usable ? snapshotSeqNr : 0;
    if (lastSeqNr > folded) {
      try {
        state = foldEventsAfter(definition, keys, aid, state, folded, lastSeqNr, consistent);
      } catch (CorruptStreamException missing) {
        if (stale) {
          throw new StaleSnapshotException(definition.name(), aid, snapshotSeqNr, missing);
        }
        throw missing;
      }
    }
    if (state == null) {
      throw new CorruptStreamException(definition.name(), aid, hasSnapshot || lastSeqNr > 0
          ? "no stored event stands for a creating event any more (upcasters dropped them all)"
          : "the head row has neither a snapshot nor events");
    }
    JournalPosition position = new JournalPosition(snapshotSeqNr, retained(head), stale, ItemSize.ofEach(head));
    return new LoadedStream<>(state, version, lastSeqNr, position);
  }

  private Map<String, AttributeValue> readHead(JournalKeys keys, String aid, boolean consistent) {
    try {
      GetItemResponse response = client.getItem(b -> b
          .tableName(config.snapshotTable())
          .key(Map.of(
              PKEY, AttributeValue.fromS(keys.partitionKey(aid)),
              SKEY, AttributeValue.fromS(keys.headSortKey(aid))))
          .consistentRead(consistent));
      return response.hasItem() ? response.item() : Map.of();
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.snapshotTable()), e);
    }
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

  /**
   * Folds events {@code snapshotSeqNr + 1 .. lastSeqNr} onto {@code snapshot}, or from the creating event
   * when it is null. The range stops at the head row's last seq_nr,
   * so events a concurrent writer appends after the head was read are not mixed into this state.
   */
  private <A, I, E> A foldEventsAfter(
      AggregateDefinition<A, I, E> definition,
      JournalKeys keys,
      String aid,
      A snapshot,
      long snapshotSeqNr,
      long lastSeqNr,
      boolean consistent) {
    Fold<A> fold = new Fold<>(snapshot);
    forEachEvent(definition, keys, aid, snapshotSeqNr + 1, lastSeqNr, consistent, (seqNr, item) -> {
      for (E event : JournalEvents.events(definition, aid, seqNr, item)) {
        fold.state = fold.state == null
            ? definition.replay().create(event)
            : definition.replay().apply(fold.state, event);
      }
    });
    return fold.state;
  }

  /** The state being folded while a range of events is visited. */
  private static final class Fold<A> {
    private A state;

    Fold(A state) {
      this.state = state;
    }
  }

  /** What to do with each journal item of a range, in seq_nr order. */
  @FunctionalInterface
  private interface ItemVisitor {
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
    QueryRequest.Builder query = QueryRequest.builder()
        .tableName(config.journalTable())
        .keyConditionExpression("#pkey = :pkey AND #skey BETWEEN :from AND :to")
        .expressionAttributeNames(Map.of("#pkey", PKEY, "#skey", SKEY))
        .expressionAttributeValues(Map.of(
            ":pkey", AttributeValue.fromS(keys.partitionKey(aid)),
            ":from", AttributeValue.fromS(keys.sortKey(aid, from)),
            ":to", AttributeValue.fromS(keys.sortKey(aid, to))))
        .consistentRead(consistent);
    long expected = from;
    Map<String, AttributeValue> startKey = null;
    do {
      QueryResponse page = query(query.exclusiveStartKey(startKey).build());
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
      startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (startKey != null);
    if (!consistent && expected <= to) {
      forEachEvent(definition, keys, aid, expected, to, true, visitor);
      return;
    }
    if (expected - 1 != to) {
      throw new CorruptStreamException(definition.name(), aid, "the head row says the stream reaches event " + to
          + " but the journal holds events only up to " + (expected - 1));
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
