package dev.esgen.bench.e2e;

import dev.esgen.bench.measure.Meter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * The floor of the tip layout: its {@code PutItem}, {@code GetItem} and {@code UpdateItem} written by
 * hand with the bare AWS SDK, attribute for attribute what {@code TipAppender} writes and
 * {@code TipLoader} reads (docs/schema.md, "the tip layout"), and nothing else. No esgen class is used;
 * event and snapshot bodies come pre-encoded in the {@link Fixture}. The scenarios' tips stay far below
 * the 32 KB calving threshold, so the floor never calves (and checks that it would not need to).
 */
public final class TipBareSdkSide implements Side {

  private static final String NAME = "bench-cart";
  private static final AttributeValue TIP_INDEX = AttributeValue.fromN(Long.toString(Long.MAX_VALUE));
  /** Far below TipPolicy's 32 KB default: the small events of the scenarios never reach it. */
  private static final int MAX_TIP_EVENTS = 200;

  private final DynamoDbClient client;
  private final Meter meter;
  private final String table;
  private final byte[] smallEventBody;

  /**
   * @param table the tip table ({@code StoreConfig.tipTable()})
   * @param smallEventBody the JSON body of the small event appends and commands write
   */
  public TipBareSdkSide(DynamoDbClient client, Meter meter, String table, byte[] smallEventBody) {
    this.client = client;
    this.meter = meter;
    this.table = table;
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
    tip.put("et", s(UUID.randomUUID().toString()));
    tip.put("e", AttributeValue.fromL(List.of(event(now, stream.openedBody()))));
    tip.put("c", AttributeValue.fromL(List.of(s("cart-opened"))));
    tip.put("u", unfold(1, now, stream.snapshotBody()));
    client.putItem(b -> b
        .tableName(table)
        .item(tip)
        .conditionExpression("attribute_not_exists(#p)")
        .expressionAttributeNames(Map.of("#p", "p"))
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
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
  public void findByUnique(Fixture stream) {
    throw new UnsupportedOperationException("the tip layout has no lookups yet");
  }

  @Override
  public void listByIndexed(Fixture stream) {
    throw new UnsupportedOperationException("the tip layout has no lookups yet");
  }

  @Override
  public void findAll(Fixture stream) {
    throw new UnsupportedOperationException("the tip layout has no lookups yet");
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
    for (int i = 0; i < events; i++) {
      newEvents.add(event(now, smallEventBody));
      newCases.add(s("item-added"));
    }
    Map<String, AttributeValue> values = new HashMap<>();
    values.put(":expected", n(version));
    values.put(":v", n(version + 1));
    values.put(":n", n(next));
    values.put(":a", n(events));
    values.put(":et", s(UUID.randomUUID().toString()));
    values.put(":e", AttributeValue.fromL(newEvents));
    values.put(":c", AttributeValue.fromL(newCases));
    values.put(":u", unfold(next, now, stream.snapshotAfter(events)));
    client.updateItem(b -> b
        .tableName(table)
        .key(Map.of("p", s(streamName(stream.aid())), "i", TIP_INDEX))
        .updateExpression("SET #v = :v, #n = :n, #a = :a, #et = :et, #e = list_append(#e, :e),"
            + " #c = list_append(#c, :c), #u = :u")
        .conditionExpression("#v = :expected")
        .expressionAttributeNames(Map.of(
            "#v", "v", "#n", "n", "#a", "a", "#et", "et", "#e", "e", "#c", "c", "#u", "u"))
        .expressionAttributeValues(values)
        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
  }

  private static AttributeValue event(String at, byte[] body) {
    return AttributeValue.fromM(Map.of("t", s(at), "d", AttributeValue.fromB(SdkBytes.fromByteArray(body))));
  }

  private static AttributeValue unfold(long index, String at, byte[] body) {
    return AttributeValue.fromM(Map.of(
        "i", n(index), "t", s(at), "d", AttributeValue.fromB(SdkBytes.fromByteArray(body))));
  }

  private static long version(Map<String, AttributeValue> tip) {
    return Long.parseLong(tip.get("v").n());
  }

  private static String streamName(String aid) {
    return NAME + "-" + aid;
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }
}
