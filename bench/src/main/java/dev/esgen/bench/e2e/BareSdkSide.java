package dev.esgen.bench.e2e;

import dev.esgen.bench.measure.Meter;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The floor: the journal layout's requests written by hand with the bare AWS SDK, item for item and
 * attribute for attribute what esgen sends (docs/schema.md), index column ({@code ix0_pk}) and unique
 * reservation included, and nothing else. No esgen class is used
 * here; the JSON bodies come pre-encoded in the {@link Fixture} and the constructor.
 *
 * <p>It does what a careful hand-written store must do to issue the same requests (read the head's
 * version and last seq_nr, page through the events after the snapshot, store a fresh append id with
 * the first event of every append so that a writer whose response was lost can tell whether its append
 * was stored) but decodes no JSON and folds no state: the difference to esgen is what esgen costs.
 */
public final class BareSdkSide implements Side {

  private static final String NAME = "bench-cart";
  private static final int SHARDS = 4;
  private static final int SNAPSHOT_EVERY = 1000;
  private static final String OWNER_SLOT = "ix0_pk";
  private static final String OWNER_INDEX = "esgen-index-0";
  private static final Base64.Encoder APPEND_ID_ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final SecureRandom APPEND_ID_RANDOM = new SecureRandom();

  private final DynamoDbClient client;
  private final Meter meter;
  private final String journalTable;
  private final String snapshotTable;
  private final byte[] smallEventBody;

  /**
   * @param smallEventBody the JSON body of the small event appends and commands write
   */
  public BareSdkSide(DynamoDbClient client, Meter meter, String journalTable, String snapshotTable,
      byte[] smallEventBody) {
    this.client = client;
    this.meter = meter;
    this.journalTable = journalTable;
    this.snapshotTable = snapshotTable;
    this.smallEventBody = smallEventBody.clone();
  }

  @Override
  public String name() {
    return "floor";
  }

  @Override
  public Meter meter() {
    return meter;
  }

  @Override
  public void create(Fixture stream) {
    String aid = stream.aid();
    String pkey = partitionKey(aid);
    List<TransactWriteItem> actions = new ArrayList<>();
    actions.add(eventPut(pkey, aid, 1, "cart-opened", stream.openedBody(), Instant.now(), appendId()));
    // The head row is an update that creates it, with the owner's index slot set.
    Map<String, String> names = new HashMap<>(Map.of(
        "#last", "last_seq_nr", "#version", "version", "#aid", "aid", "#payload", "payload", "#seq", "seq_nr",
        "#slot", OWNER_SLOT, "#pkey", "pkey"));
    Map<String, AttributeValue> values = new HashMap<>(Map.of(
        ":last", n(1), ":version", n(1), ":aid", s(aid),
        ":payload", AttributeValue.fromB(SdkBytes.fromByteArray(stream.snapshotBody())), ":seq", n(1),
        ":slot", s(NAME + "#owner#" + stream.owner())));
    actions.add(TransactWriteItem.builder().update(Update.builder()
        .tableName(snapshotTable)
        .key(Map.of("pkey", s(pkey), "skey", s(sortKey(aid, 0))))
        .updateExpression("SET #last = :last, #version = :version, #aid = :aid, #payload = :payload, #seq = :seq,"
            + " #slot = :slot")
        .conditionExpression("attribute_not_exists(#pkey)")
        .expressionAttributeNames(names)
        .expressionAttributeValues(values)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
        .build()).build());
    // The code's reservation.
    actions.add(TransactWriteItem.builder().put(Put.builder()
        .tableName(snapshotTable)
        .item(Map.of("pkey", s(reservationKey(stream.code())), "skey", s("unique"), "aid", s(aid)))
        .conditionExpression("attribute_not_exists(#pkey) OR #aid = :aid")
        .expressionAttributeNames(Map.of("#pkey", "pkey", "#aid", "aid"))
        .expressionAttributeValues(Map.of(":aid", s(aid)))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
        .build()).build());
    write(actions);
  }

  @Override
  public void append(Fixture stream, int events) {
    Head head = readHead(stream.aid());
    if (head.version != 1) {
      throw new IllegalStateException("expected version 1, found " + head.version);
    }
    readEventsAfterSnapshot(stream.aid(), head);
    appendSmallEvents(stream.aid(), head, events);
  }

  @Override
  public void load(Fixture stream) {
    readEventsAfterSnapshot(stream.aid(), readHead(stream.aid()));
  }

  @Override
  public void transact(Fixture stream) {
    Head head = readHead(stream.aid());
    readEventsAfterSnapshot(stream.aid(), head);
    appendSmallEvents(stream.aid(), head, 1);
  }

  @Override
  public void loadByUnique(Fixture stream) {
    Map<String, AttributeValue> reservation = client.getItem(b -> b
        .tableName(snapshotTable)
        .key(Map.of("pkey", s(reservationKey(stream.code())), "skey", s("unique")))
        .consistentRead(true)).item();
    String aid = reservation.get("aid").s();
    readEventsAfterSnapshot(aid, readHead(aid));
  }

  @Override
  public void listByIndexed(Fixture stream) {
    QueryResponse ids = client.query(b -> b
        .tableName(snapshotTable)
        .indexName(OWNER_INDEX)
        .keyConditionExpression("#k = :k")
        .expressionAttributeNames(Map.of("#k", OWNER_SLOT))
        .expressionAttributeValues(Map.of(":k", s(NAME + "#owner#" + stream.owner())))
        .limit(Fixture.LOOKUP_GROUP));
    List<String> aids = ids.items().stream().map(item -> item.get("aid").s()).toList();
    if (batchGetHeads(aids) != Fixture.LOOKUP_GROUP) {
      throw new IllegalStateException("listed fewer than " + Fixture.LOOKUP_GROUP + " carts of " + stream.owner());
    }
  }

  @Override
  public void findAll(Fixture stream) {
    List<String> aids = stream.group().stream().map(id -> id.value().toString()).toList();
    if (batchGetHeads(aids) != aids.size()) {
      throw new IllegalStateException("found fewer than " + aids.size() + " carts");
    }
  }

  /** One consistent BatchGetItem of the head rows (at most 100), unprocessed keys asked again. */
  private int batchGetHeads(List<String> aids) {
    List<Map<String, AttributeValue>> keys = aids.stream()
        .map(aid -> Map.of("pkey", s(partitionKey(aid)), "skey", s(sortKey(aid, 0))))
        .toList();
    Map<String, KeysAndAttributes> request =
        Map.of(snapshotTable, KeysAndAttributes.builder().keys(keys).consistentRead(true).build());
    int found = 0;
    while (!request.isEmpty()) {
      Map<String, KeysAndAttributes> pending = request;
      BatchGetItemResponse response = client.batchGetItem(b -> b.requestItems(pending));
      found += response.responses().getOrDefault(snapshotTable, List.of()).size();
      request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
    }
    return found;
  }

  private static String reservationKey(String code) {
    return NAME + "#code#" + code;
  }

  private record Head(long snapshotSeqNr, long lastSeqNr, long version) {}

  private Head readHead(String aid) {
    GetItemResponse response = client.getItem(b -> b
        .tableName(snapshotTable)
        .key(Map.of("pkey", s(partitionKey(aid)), "skey", s(sortKey(aid, 0))))
        .consistentRead(true));
    Map<String, AttributeValue> item = response.item();
    return new Head(number(item, "seq_nr"), number(item, "last_seq_nr"), number(item, "version"));
  }

  private void readEventsAfterSnapshot(String aid, Head head) {
    if (head.lastSeqNr == head.snapshotSeqNr) {
      return;
    }
    QueryRequest.Builder query = QueryRequest.builder()
        .tableName(journalTable)
        .keyConditionExpression("#pkey = :pkey AND #skey BETWEEN :from AND :to")
        .expressionAttributeNames(Map.of("#pkey", "pkey", "#skey", "skey"))
        .expressionAttributeValues(Map.of(
            ":pkey", s(partitionKey(aid)),
            ":from", s(sortKey(aid, head.snapshotSeqNr + 1)),
            ":to", s(sortKey(aid, head.lastSeqNr))))
        .consistentRead(true);
    int read = 0;
    Map<String, AttributeValue> startKey = null;
    do {
      QueryResponse page = client.query(query.exclusiveStartKey(startKey).build());
      read += page.count();
      startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
    } while (startKey != null);
    if (read != head.lastSeqNr - head.snapshotSeqNr) {
      throw new IllegalStateException("read " + read + " events of stream " + aid + ", expected "
          + (head.lastSeqNr - head.snapshotSeqNr));
    }
  }

  private void appendSmallEvents(String aid, Head head, int events) {
    long last = head.lastSeqNr + events;
    // esgen would rewrite the head row with a new snapshot here; the scenarios never get this far.
    if (last - head.snapshotSeqNr >= SNAPSHOT_EVERY) {
      throw new IllegalStateException("the floor's scenarios do not reach a snapshot");
    }
    String pkey = partitionKey(aid);
    Instant now = Instant.now();
    List<TransactWriteItem> actions = new ArrayList<>();
    String appendId = appendId();
    for (long seqNr = head.lastSeqNr + 1; seqNr <= last; seqNr++) {
      actions.add(eventPut(pkey, aid, seqNr, "item-added", smallEventBody, now,
          seqNr == head.lastSeqNr + 1 ? appendId : null));
    }
    actions.add(TransactWriteItem.builder().update(Update.builder()
        .tableName(snapshotTable)
        .key(Map.of("pkey", s(pkey), "skey", s(sortKey(aid, 0))))
        .updateExpression("SET #last = :last, #version = :version")
        .conditionExpression("#version = :expected")
        .expressionAttributeNames(Map.of("#last", "last_seq_nr", "#version", "version"))
        .expressionAttributeValues(Map.of(
            ":last", n(last), ":version", n(head.version + 1), ":expected", n(head.version)))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
        .build()).build());
    write(actions);
  }

  /** An event's Put; {@code appendId} is non-null on the first event of an append only. */
  private TransactWriteItem eventPut(
      String pkey, String aid, long seqNr, String type, byte[] body, Instant at, String appendId) {
    Map<String, AttributeValue> item = new HashMap<>(Map.of(
        "pkey", s(pkey),
        "skey", s(sortKey(aid, seqNr)),
        "aid", s(aid),
        "seq_nr", n(seqNr),
        "event_type", s(type),
        "payload", AttributeValue.fromB(SdkBytes.fromByteArray(body)),
        "occurred_at", s(at.toString())));
    if (appendId != null) {
      item.put("append_id", s(appendId));
    }
    return TransactWriteItem.builder().put(Put.builder()
        .tableName(journalTable)
        .item(item)
        .conditionExpression("attribute_not_exists(#pkey)")
        .expressionAttributeNames(Map.of("#pkey", "pkey"))
        .build()).build();
  }

  private void write(List<TransactWriteItem> actions) {
    client.transactWriteItems(b -> b.transactItems(actions).clientRequestToken(UUID.randomUUID().toString()));
  }

  /**
   * A fresh append id as esgen makes it: 128 bits of a {@link SecureRandom} as 22 characters of URL-safe
   * Base64 (a generator seeded in the heap would repeat ids in copies of one JVM snapshot).
   */
  static String appendId() {
    byte[] bits = new byte[16];
    APPEND_ID_RANDOM.nextBytes(bits);
    return APPEND_ID_ENCODER.encodeToString(bits);
  }

  private static String partitionKey(String aid) {
    CRC32 crc = new CRC32();
    crc.update(aid.getBytes(StandardCharsets.UTF_8));
    return NAME + "-" + (crc.getValue() % SHARDS);
  }

  private static String sortKey(String aid, long seqNr) {
    String digits = Long.toString(seqNr);
    return NAME + "-" + aid + "-" + "0".repeat(20 - digits.length()) + digits;
  }

  private static long number(Map<String, AttributeValue> item, String name) {
    return Long.parseLong(item.get(name).n());
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
