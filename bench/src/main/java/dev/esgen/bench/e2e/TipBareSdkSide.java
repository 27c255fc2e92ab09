package dev.esgen.bench.e2e;

import dev.esgen.bench.measure.Meter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The floor of the tip layout: its {@code PutItem}, {@code GetItem} and {@code UpdateItem} written by
 * hand with the bare AWS SDK, attribute for attribute what {@code TipAppender} writes and
 * {@code TipLoader} reads (docs/schema.md, "the tip layout"), and nothing else: the create is one
 * transaction of the tip's Put (with {@code aid}, listing key {@code lk} and the owner's index slot) and
 * the code's reservation in the snapshot table; lookups read the tip table's slot index and the tips. No esgen class is used;
 * event and snapshot bodies come pre-encoded in the {@link Fixture}. The writing scenarios start from a
 * fresh stream and add at most 5 events, below the default calving thresholds (10 events, 2 KB), so the
 * floor never calves (and checks that it would not need to); streams prepared for loads may have calved,
 * which a load of the tip does not see.
 *
 * <p>Like esgen, it stores a fresh append id ({@code x}, 128 random bits as 22 characters) in the first
 * event map of every append, which is what lets a writer whose response was lost tell whether its append
 * was stored; a careful hand-written store needs the same. Stream keys are {@code {name}#{aid}} (tip
 * format 2).
 */
public final class TipBareSdkSide implements Side {

  private static final String NAME = "bench-cart";
  private static final int SHARDS = 4;
  private static final String OWNER_SLOT = "ix0_pk";
  private static final String OWNER_INDEX = "esgen-index-0";
  private static final AttributeValue TIP_INDEX = AttributeValue.fromN(Long.toString(Long.MAX_VALUE));
  /** TipPolicy's default event threshold: the writing scenarios never reach it. */
  private static final int MAX_TIP_EVENTS = 10;

  private final DynamoDbClient client;
  private final Meter meter;
  private final String table;
  private final String snapshotTable;
  private final byte[] smallEventBody;

  /**
   * @param table the tip table ({@code StoreConfig.tipTable()})
   * @param snapshotTable the table of unique reservations ({@code StoreConfig.snapshotTable()})
   * @param smallEventBody the JSON body of the small event appends and commands write
   */
  public TipBareSdkSide(DynamoDbClient client, Meter meter, String table, String snapshotTable,
      byte[] smallEventBody) {
    this.client = client;
    this.meter = meter;
    this.table = table;
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
    String now = Instant.now().toString();
    Map<String, AttributeValue> tip = new HashMap<>();
    tip.put("p", s(streamName(stream.aid())));
    tip.put("i", TIP_INDEX);
    tip.put("v", n(1));
    tip.put("n", n(1));
    tip.put("a", n(1));
    tip.put("e", AttributeValue.fromL(List.of(event(now, stream.openedBody(), BareSdkSide.appendId()))));
    tip.put("c", AttributeValue.fromL(List.of(s("cart-opened"))));
    tip.put("aid", s(stream.aid()));
    tip.put("lk", s(NAME + "-" + shard(stream.aid())));
    tip.put(OWNER_SLOT, s(NAME + "#owner#" + stream.owner()));
    tip.put("u", unfold(1, now, stream.snapshotBody()));
    TransactWriteItem putTip = TransactWriteItem.builder().put(Put.builder()
        .tableName(table)
        .item(tip)
        .conditionExpression("attribute_not_exists(#p)")
        .expressionAttributeNames(Map.of("#p", "p"))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
        .build()).build();
    TransactWriteItem reserve = TransactWriteItem.builder().put(Put.builder()
        .tableName(snapshotTable)
        .item(Map.of("pkey", s(NAME + "#code#" + stream.code()), "skey", s("unique"), "aid", s(stream.aid())))
        .conditionExpression("attribute_not_exists(#pkey) OR #aid = :aid")
        .expressionAttributeNames(Map.of("#pkey", "pkey", "#aid", "aid"))
        .expressionAttributeValues(Map.of(":aid", s(stream.aid())))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
        .build()).build();
    client.transactWriteItems(b -> b.transactItems(putTip, reserve).clientRequestToken(UUID.randomUUID().toString()));
  }

  @Override
  public void append(Fixture stream, int events) {
    Map<String, AttributeValue> tip = readTip(stream.aid());
    if (version(tip) != 1) {
      throw new IllegalStateException("expected version 1, found " + version(tip));
    }
    update(stream, tip, events);
  }

  @Override
  public void load(Fixture stream) {
    if (readTip(stream.aid()).isEmpty()) {
      throw new IllegalStateException("no tip for " + stream.aid());
    }
  }

  @Override
  public void transact(Fixture stream) {
    update(stream, readTip(stream.aid()), 1);
  }

  @Override
  public void loadByUnique(Fixture stream) {
    Map<String, AttributeValue> reservation = client.getItem(b -> b
        .tableName(snapshotTable)
        .key(Map.of("pkey", s(NAME + "#code#" + stream.code()), "skey", s("unique")))
        .consistentRead(true)).item();
    if (readTip(reservation.get("aid").s()).isEmpty()) {
      throw new IllegalStateException("no tip for code " + stream.code());
    }
  }

  @Override
  public void listByIndexed(Fixture stream) {
    QueryResponse ids = client.query(b -> b
        .tableName(table)
        .indexName(OWNER_INDEX)
        .keyConditionExpression("#k = :k")
        .expressionAttributeNames(Map.of("#k", OWNER_SLOT))
        .expressionAttributeValues(Map.of(":k", s(NAME + "#owner#" + stream.owner())))
        .limit(Fixture.LOOKUP_GROUP));
    List<String> aids = ids.items().stream().map(item -> item.get("aid").s()).toList();
    if (batchGetTips(aids) != Fixture.LOOKUP_GROUP) {
      throw new IllegalStateException("listed fewer than " + Fixture.LOOKUP_GROUP + " carts of " + stream.owner());
    }
  }

  @Override
  public void findAll(Fixture stream) {
    List<String> aids = stream.group().stream().map(id -> id.value().toString()).toList();
    if (batchGetTips(aids) != aids.size()) {
      throw new IllegalStateException("found fewer than " + aids.size() + " carts");
    }
  }

  /** One consistent BatchGetItem of the tips (at most 100), unprocessed keys asked again. */
  private int batchGetTips(List<String> aids) {
    List<Map<String, AttributeValue>> keys = aids.stream()
        .map(aid -> Map.of("p", s(streamName(aid)), "i", TIP_INDEX))
        .toList();
    Map<String, KeysAndAttributes> request =
        Map.of(table, KeysAndAttributes.builder().keys(keys).consistentRead(true).build());
    int found = 0;
    while (!request.isEmpty()) {
      Map<String, KeysAndAttributes> pending = request;
      BatchGetItemResponse response = client.batchGetItem(b -> b.requestItems(pending));
      found += response.responses().getOrDefault(table, List.of()).size();
      request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
    }
    return found;
  }

  private static long shard(String aid) {
    CRC32 crc = new CRC32();
    crc.update(aid.getBytes(StandardCharsets.UTF_8));
    return crc.getValue() % SHARDS;
  }

  private Map<String, AttributeValue> readTip(String aid) {
    return client.getItem(b -> b
        .tableName(table)
        .key(Map.of("p", s(streamName(aid)), "i", TIP_INDEX))
        .consistentRead(true)).item();
  }

  /** The tip's UpdateItem: the new events appended to its lists, the snapshot rewritten, under its version. */
  private void update(Fixture stream, Map<String, AttributeValue> tip, int events) {
    long version = version(tip);
    long next = Long.parseLong(tip.get("n").n()) + events;
    if (tip.get("e").l().size() + events > MAX_TIP_EVENTS) {
      throw new IllegalStateException("the floor's scenarios do not calve");
    }
    String now = Instant.now().toString();
    List<AttributeValue> newEvents = new ArrayList<>();
    List<AttributeValue> newCases = new ArrayList<>();
    String appendId = BareSdkSide.appendId();
    for (int i = 0; i < events; i++) {
      newEvents.add(event(now, smallEventBody, i == 0 ? appendId : null));
      newCases.add(s("item-added"));
    }
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":expected", n(version));
    values.put(":v", n(version + 1));
    values.put(":n", n(next));
    values.put(":a", n(events));
    values.put(":e", AttributeValue.fromL(newEvents));
    values.put(":c", AttributeValue.fromL(newCases));
    values.put(":u", unfold(next, now, stream.snapshotAfter(events)));
    client.updateItem(b -> b
        .tableName(table)
        .key(Map.of("p", s(streamName(stream.aid())), "i", TIP_INDEX))
        .updateExpression("SET #v = :v, #n = :n, #a = :a, #e = list_append(#e, :e), #c = list_append(#c, :c),"
            + " #u = :u")
        .conditionExpression("#v = :expected")
        .expressionAttributeNames(Map.of("#v", "v", "#n", "n", "#a", "a", "#e", "e", "#c", "c", "#u", "u"))
        .expressionAttributeValues(values)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
  }

  /** A stored event: timestamp and body, and on the first event of an append the append id. */
  private static AttributeValue event(String at, byte[] body, String appendId) {
    AttributeValue data = AttributeValue.fromB(SdkBytes.fromByteArray(body));
    return AttributeValue.fromM(appendId == null
        ? Map.of("t", s(at), "d", data)
        : Map.of("t", s(at), "d", data, "x", s(appendId)));
  }

  private static AttributeValue unfold(long index, String at, byte[] body) {
    return AttributeValue.fromM(Map.of(
        "i", n(index), "t", s(at), "d", AttributeValue.fromB(SdkBytes.fromByteArray(body))));
  }

  private static long version(Map<String, AttributeValue> tip) {
    return Long.parseLong(tip.get("v").n());
  }

  /** The partition key of the stream: {@code {name}#{aid}}, '#' being a character names cannot hold. */
  private static String streamName(String aid) {
    return NAME + "#" + aid;
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
