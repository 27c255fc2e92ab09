package dev.esgen.runtime.journal;

import static dev.esgen.runtime.journal.JournalAttributes.AID;
import static dev.esgen.runtime.journal.JournalAttributes.EVENT_TYPE;
import static dev.esgen.runtime.journal.JournalAttributes.LAST_SEQ_NR;
import static dev.esgen.runtime.journal.JournalAttributes.OCCURRED_AT;
import static dev.esgen.runtime.journal.JournalAttributes.PAYLOAD;
import static dev.esgen.runtime.journal.JournalAttributes.PKEY;
import static dev.esgen.runtime.journal.JournalAttributes.RETAINED_SEQ_NRS;
import static dev.esgen.runtime.journal.JournalAttributes.SEQ_NR;
import static dev.esgen.runtime.journal.JournalAttributes.SKEY;
import static dev.esgen.runtime.journal.JournalAttributes.TTL;
import static dev.esgen.runtime.journal.JournalAttributes.VERSION;

import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.error.EventEncodingException;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.SnapshotEncodingException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.storage.AppendRequest;
import dev.esgen.runtime.storage.ItemSize;
import dev.esgen.runtime.storage.LoadedStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Writes one append as a single {@code TransactWriteItems}: builds every action, checks item and
 * transaction sizes before sending, and maps cancellations to esgen's errors.
 */
final class JournalAppender {

  private final DynamoDbClient client;
  private final StoreConfig config;

  JournalAppender(DynamoDbClient client, StoreConfig config) {
    this.client = client;
    this.config = config;
  }

  <A, I, E> LoadedStream<A> append(AppendRequest<A, I, E> request) {
    AggregateDefinition<A, I, E> definition = request.definition();
    String aid = definition.keys().idString(request.id());
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    long baseVersion = request.current().map(LoadedStream::version).orElse(0L);
    long baseSeqNr = request.current().map(LoadedStream::seqNr).orElse(0L);
    JournalPosition position = request.current()
        .map(current -> journalPosition(current, definition.name()))
        .orElse(new JournalPosition(0, List.of()));
    Instant now = config.clock().instant();
    String pkey = keys.partitionKey(aid);

    Transaction transaction = new Transaction(definition.name(), aid);
    long seqNr = baseSeqNr;
    for (E event : request.events()) {
      seqNr++;
      transaction.add("event " + seqNr, journalItem(definition, keys, aid, pkey, seqNr, event, now));
    }
    long lastSeqNr = seqNr;
    long version = baseVersion + 1;
    boolean creating = request.current().isEmpty();

    SnapshotPolicy policy = definition.snapshotPolicy();
    JournalPosition next;
    if (creating || lastSeqNr - position.snapshotSeqNr() >= policy.every()) {
      byte[] snapshot = encodeSnapshot(definition, aid, lastSeqNr, request.newState());
      List<Long> retained = new ArrayList<>(position.retainedSeqNrs());
      if (policy.keep() > 0) {
        retained.add(lastSeqNr);
      }
      List<Long> displaced = new ArrayList<>();
      while (retained.size() > policy.keep()) {
        displaced.add(retained.remove(0));
      }
      Map<String, AttributeValue> head = new HashMap<>();
      head.put(PKEY, AttributeValue.fromS(pkey));
      head.put(SKEY, AttributeValue.fromS(keys.headSortKey(aid)));
      head.put(AID, AttributeValue.fromS(aid));
      head.put(PAYLOAD, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(snapshot)));
      head.put(SEQ_NR, number(lastSeqNr));
      head.put(LAST_SEQ_NR, number(lastSeqNr));
      head.put(VERSION, number(version));
      if (policy.keep() > 0) {
        head.put(RETAINED_SEQ_NRS, AttributeValue.fromL(retained.stream().map(JournalAppender::number).toList()));
      }
      transaction.addHead(headPut(head, creating, baseVersion), ItemSize.of(head), "snapshot at seq_nr " + lastSeqNr);
      if (policy.keep() > 0) {
        Map<String, AttributeValue> older = Map.of(
            PKEY, AttributeValue.fromS(pkey),
            SKEY, AttributeValue.fromS(keys.sortKey(aid, lastSeqNr)),
            AID, AttributeValue.fromS(aid),
            PAYLOAD, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(snapshot)),
            SEQ_NR, number(lastSeqNr));
        transaction.add("kept snapshot at seq_nr " + lastSeqNr, TransactWriteItem.builder()
            .put(Put.builder().tableName(config.snapshotTable()).item(older).build()).build(), ItemSize.of(older));
      }
      for (long old : displaced) {
        transaction.add("displaced snapshot at seq_nr " + old,
            displace(policy, pkey, keys.sortKey(aid, old), now), 0);
      }
      next = new JournalPosition(lastSeqNr, retained);
    } else {
      transaction.addHead(headUpdate(pkey, keys.headSortKey(aid), baseVersion, version, lastSeqNr), 0, "head");
      next = position;
    }

    transaction.checkLimits();
    send(transaction, definition.name(), aid, baseVersion, creating);
    return new LoadedStream<>(request.newState(), version, lastSeqNr, next);
  }

  private static JournalPosition journalPosition(LoadedStream<?> current, String aggregateName) {
    if (current.position() instanceof JournalPosition position) {
      return position;
    }
    throw new IllegalArgumentException("aggregate " + aggregateName + ": the journal layout cannot append to a"
        + " stream loaded by another layout (" + current.position().getClass().getName() + ")");
  }

  private <A, I, E> TransactItem journalItem(
      AggregateDefinition<A, I, E> definition,
      JournalKeys keys,
      String aid,
      String pkey,
      long seqNr,
      E event,
      Instant now) {
    String type = definition.eventCodec().typeName(event);
    byte[] body;
    try {
      body = definition.eventCodec().encode(event);
    } catch (IOException | RuntimeException e) {
      throw new EventEncodingException(definition.name(), aid, type, e);
    }
    Map<String, AttributeValue> item = Map.of(
        PKEY, AttributeValue.fromS(pkey),
        SKEY, AttributeValue.fromS(keys.sortKey(aid, seqNr)),
        AID, AttributeValue.fromS(aid),
        SEQ_NR, number(seqNr),
        EVENT_TYPE, AttributeValue.fromS(type),
        PAYLOAD, AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(body)),
        OCCURRED_AT, AttributeValue.fromS(now.toString()));
    TransactWriteItem put = TransactWriteItem.builder()
        .put(Put.builder()
            .tableName(config.journalTable())
            .item(item)
            .conditionExpression("attribute_not_exists(#pkey)")
            .expressionAttributeNames(Map.of("#pkey", PKEY))
            .build())
        .build();
    return new TransactItem(put, ItemSize.of(item));
  }

  private static <A> byte[] encodeSnapshot(AggregateDefinition<A, ?, ?> definition, String aid, long seqNr, A state) {
    try {
      return definition.snapshotCodec().encode(state);
    } catch (IOException | RuntimeException e) {
      throw new SnapshotEncodingException(definition.name(), aid, seqNr, e);
    }
  }

  private TransactWriteItem headPut(Map<String, AttributeValue> head, boolean creating, long expectedVersion) {
    Put.Builder put = Put.builder()
        .tableName(config.snapshotTable())
        .item(head)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    if (creating) {
      put.conditionExpression("attribute_not_exists(#pkey)").expressionAttributeNames(Map.of("#pkey", PKEY));
    } else {
      put.conditionExpression("#version = :expected")
          .expressionAttributeNames(Map.of("#version", VERSION))
          .expressionAttributeValues(Map.of(":expected", number(expectedVersion)));
    }
    return TransactWriteItem.builder().put(put.build()).build();
  }

  /** Moves the head row to a new last seq_nr and version without rewriting its snapshot. */
  private TransactWriteItem headUpdate(String pkey, String skey, long expectedVersion, long version, long lastSeqNr) {
    return TransactWriteItem.builder()
        .update(Update.builder()
            .tableName(config.snapshotTable())
            .key(Map.of(PKEY, AttributeValue.fromS(pkey), SKEY, AttributeValue.fromS(skey)))
            .updateExpression("SET #last = :last, #version = :version")
            .conditionExpression("#version = :expected")
            .expressionAttributeNames(Map.of("#last", LAST_SEQ_NR, "#version", VERSION))
            .expressionAttributeValues(Map.of(
                ":last", number(lastSeqNr), ":version", number(version), ":expected", number(expectedVersion)))
            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
            .build())
        .build();
  }

  /** Deletes an older snapshot row, or in TTL mode marks it for DynamoDB to delete later. */
  private TransactWriteItem displace(SnapshotPolicy policy, String pkey, String skey, Instant now) {
    Map<String, AttributeValue> key = Map.of(PKEY, AttributeValue.fromS(pkey), SKEY, AttributeValue.fromS(skey));
    if (policy.ttl().isEmpty()) {
      return TransactWriteItem.builder()
          .delete(Delete.builder().tableName(config.snapshotTable()).key(key).build())
          .build();
    }
    // Unconditional: should the row be gone already, the stub this creates expires just the same, where
    // a condition would cancel the whole append over a snapshot nobody needs any more.
    long expiresAt = now.plus(policy.ttl().get()).getEpochSecond();
    return TransactWriteItem.builder()
        .update(Update.builder()
            .tableName(config.snapshotTable())
            .key(key)
            .updateExpression("SET #ttl = :ttl")
            .expressionAttributeNames(Map.of("#ttl", TTL))
            .expressionAttributeValues(Map.of(":ttl", number(expiresAt)))
            .build())
        .build();
  }

  private void send(Transaction transaction, String aggregateName, String aid, long expectedVersion, boolean creating) {
    // One token per logical append: the SDK's own retries of this request then cannot apply it twice.
    String token = UUID.randomUUID().toString();
    try {
      client.transactWriteItems(b -> b.transactItems(transaction.items()).clientRequestToken(token));
    } catch (TransactionCanceledException e) {
      throw new CancellationReasons(aggregateName, aid, expectedVersion, creating, transaction.labels(),
          transaction.headIndex()).toException(e);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.journalTable(), config.snapshotTable()), e);
    }
  }

  private static AttributeValue number(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  private record TransactItem(TransactWriteItem item, long sizeBytes) {}

  /** The actions of one append, with a label per action for error messages. */
  private static final class Transaction {
    private final String aggregateName;
    private final String aid;
    private final List<TransactWriteItem> items = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();
    private long sizeBytes;
    private int headIndex = -1;

    Transaction(String aggregateName, String aid) {
      this.aggregateName = aggregateName;
      this.aid = aid;
    }

    void add(String label, TransactItem item) {
      add(label, item.item(), item.sizeBytes());
    }

    /** Adds an action; {@code sizeBytes} is 0 for updates and deletes, whose result stays small. */
    void add(String label, TransactWriteItem item, long sizeBytes) {
      if (sizeBytes > ItemTooLargeException.LIMIT_BYTES) {
        throw new ItemTooLargeException(aggregateName, aid, label, sizeBytes);
      }
      items.add(item);
      labels.add(label);
      this.sizeBytes += sizeBytes;
    }

    void addHead(TransactWriteItem item, long sizeBytes, String label) {
      headIndex = items.size();
      add(label, item, sizeBytes);
    }

    void checkLimits() {
      if (items.size() > TransactionTooLargeException.ACTION_LIMIT || sizeBytes > TransactionTooLargeException.BYTE_LIMIT) {
        throw new TransactionTooLargeException(aggregateName, aid, items.size(), sizeBytes);
      }
    }

    List<TransactWriteItem> items() {
      return items;
    }

    List<String> labels() {
      return labels;
    }

    int headIndex() {
      return headIndex;
    }
  }
}
