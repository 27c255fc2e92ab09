package dev.esgen.lambda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.StreamedTable;
import dev.esgen.test.TablePrefix;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** Records read from DynamoDB Local's stream, into the Lambda event model and back. */
@ExtendWith(DynamoDbLocalExtension.class)
class LambdaStreamRecordsTest {

  private static StreamedTable stream;
  private static List<Record> records;

  /** An item holding every kind of attribute value, nested in maps and lists too. */
  static Map<String, AttributeValue> everyKind(String sortKey) {
    Map<String, AttributeValue> scalars = new HashMap<>();
    scalars.put("s", AttributeValue.fromS("text with ünïcödé"));
    scalars.put("empty-s", AttributeValue.fromS(""));
    scalars.put("n", AttributeValue.fromN("-12.5E3"));
    scalars.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, (byte) 0xff, 42})));
    scalars.put("ss", AttributeValue.fromSs(List.of("a", "b")));
    scalars.put("ns", AttributeValue.fromNs(List.of("1", "2.5")));
    scalars.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x"), SdkBytes.fromByteArray(new byte[] {7}))));
    scalars.put("null", AttributeValue.fromNul(true));
    scalars.put("bool", AttributeValue.fromBool(false));
    Map<String, AttributeValue> item = new HashMap<>(scalars);
    item.put("pkey", AttributeValue.fromS("every-kind"));
    item.put("skey", AttributeValue.fromS(sortKey));
    item.put("m", AttributeValue.fromM(Map.of("inner", AttributeValue.fromM(scalars))));
    item.put("l", AttributeValue.fromL(List.of(
        AttributeValue.fromM(scalars),
        AttributeValue.fromL(List.of(AttributeValue.fromN("1"), AttributeValue.fromS("two"))),
        AttributeValue.fromL(List.of()))));
    return item;
  }

  @BeforeAll
  static void writeAndRead(DynamoDbClient client, TablePrefix tables) {
    stream = StreamedTable.create(client, tables.name("events"), StreamViewType.NEW_AND_OLD_IMAGES);
    client.putItem(b -> b.tableName(stream.name()).item(everyKind("one")));
    Map<String, AttributeValue> changed = everyKind("one");
    changed.put("n", AttributeValue.fromN("7"));
    client.putItem(b -> b.tableName(stream.name()).item(changed));
    client.putItem(b -> b.tableName(stream.name()).item(everyKind("two")));
    client.deleteItem(b -> b.tableName(stream.name()).key(Map.of(
        "pkey", AttributeValue.fromS("every-kind"), "skey", AttributeValue.fromS("one"))));
    records = stream.records();
  }

  @Test
  void theStreamHoldsEveryKindOfValueAndEveryOperation() {
    assertEquals(List.of(OperationType.INSERT, OperationType.MODIFY, OperationType.INSERT, OperationType.REMOVE),
        records.stream().map(Record::eventName).toList());
    Set<AttributeValue.Type> kinds = EnumSet.noneOf(AttributeValue.Type.class);
    records.forEach(r -> {
      r.dynamodb().newImage().values().forEach(v -> collectKinds(v, kinds));
      r.dynamodb().oldImage().values().forEach(v -> collectKinds(v, kinds));
    });
    assertEquals(EnumSet.complementOf(EnumSet.of(AttributeValue.Type.UNKNOWN_TO_SDK_VERSION)), kinds);
  }

  @Test
  void recordsOfARealStreamComeBackFromTheLambdaEventModelUnchangedAndInOrder() {
    DynamodbEvent event = LambdaStreamRecords.toEvent(records, stream.streamArn());

    assertEquals(records, LambdaStreamRecords.toSdk(event));
    assertEquals(records.stream().map(r -> r.dynamodb().sequenceNumber()).toList(),
        event.getRecords().stream().map(r -> r.getDynamodb().getSequenceNumber()).toList());
    event.getRecords().forEach(r -> assertEquals(stream.streamArn(), r.getEventSourceARN()));
  }

  @Test
  void theLambdaModelCarriesTheValuesAsLambdaShowsThem() {
    DynamodbEvent.DynamodbStreamRecord insert = LambdaStreamRecords.toLambda(records.get(0), stream.streamArn());

    assertEquals("INSERT", insert.getEventName());
    assertEquals("NEW_AND_OLD_IMAGES", insert.getDynamodb().getStreamViewType());
    Map<String, com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue> image =
        insert.getDynamodb().getNewImage();
    assertEquals(records.get(0).dynamodb().newImage().get("n").n(), image.get("n").getN());
    assertEquals("-12500", image.get("n").getN(), "DynamoDB stores numbers normalised");
    assertEquals(List.of("a", "b"), image.get("ss").getSS());
    assertEquals(Boolean.TRUE, image.get("null").getNULL());
    assertEquals("text with ünïcödé", image.get("m").getM().get("inner").getM().get("s").getS());
    ByteBuffer bytes = image.get("b").getB();
    byte[] read = new byte[bytes.remaining()];
    bytes.duplicate().get(read);
    assertArrayEquals(new byte[] {0, 1, (byte) 0xff, 42}, read);
  }

  @Test
  void convertingLeavesTheLambdaEventsBuffersAsTheyWere() {
    DynamodbEvent event = LambdaStreamRecords.toEvent(records.subList(0, 1), stream.streamArn());
    ByteBuffer buffer = event.getRecords().get(0).getDynamodb().getNewImage().get("b").getB();
    int position = buffer.position();

    Record first = LambdaStreamRecords.toSdk(event).get(0);
    Record second = LambdaStreamRecords.toSdk(event).get(0);

    assertEquals(position, buffer.position());
    assertEquals(first, second);
  }

  @Test
  void aDeletionByTimeToLiveKeepsItsUserIdentity() {
    Record expired = Record.builder()
        .eventID("4b3f")
        .eventName(OperationType.REMOVE)
        .eventVersion("1.1")
        .eventSource("aws:dynamodb")
        .awsRegion("eu-west-1")
        .userIdentity(i -> i.principalId("dynamodb.amazonaws.com").type("Service"))
        .dynamodb(StreamRecord.builder()
            .approximateCreationDateTime(Instant.parse("2026-11-23T10:15:30Z"))
            .keys(Map.of("pkey", AttributeValue.fromS("p"), "skey", AttributeValue.fromS("s")))
            .sequenceNumber("000000000000000000123")
            .sizeBytes(42L)
            .streamViewType("KEYS_ONLY")
            .build())
        .build();

    DynamodbEvent.DynamodbStreamRecord converted = LambdaStreamRecords.toLambda(expired, "arn:stream");

    assertEquals("dynamodb.amazonaws.com", converted.getUserIdentity().getPrincipalId());
    assertEquals(expired, LambdaStreamRecords.toSdk(converted));
  }

  @Test
  void anEmptyMapWhichDynamoDbLocalStreamsAsAValueOfNoKindKeepsHavingNoKind(DynamoDbClient client,
      TablePrefix tables) {
    StreamedTable emptyMaps =
        StreamedTable.create(client, tables.name("empty-maps"), StreamViewType.NEW_AND_OLD_IMAGES);
    client.putItem(b -> b.tableName(emptyMaps.name()).item(Map.of(
        "pkey", AttributeValue.fromS("p"), "skey", AttributeValue.fromS("s"), "empty", AttributeValue.fromM(Map.of()))));
    List<Record> streamed = emptyMaps.records();
    AttributeValue empty = streamed.get(0).dynamodb().newImage().get("empty");

    List<Record> back = LambdaStreamRecords.toSdk(LambdaStreamRecords.toEvent(streamed, emptyMaps.streamArn()));

    assertEquals(streamed, back);
    assertEquals(empty.type(), back.get(0).dynamodb().newImage().get("empty").type());
  }

  private static void collectKinds(AttributeValue value, Set<AttributeValue.Type> kinds) {
    kinds.add(value.type());
    if (value.type() == AttributeValue.Type.M) {
      value.m().values().forEach(v -> collectKinds(v, kinds));
    } else if (value.type() == AttributeValue.Type.L) {
      value.l().forEach(v -> collectKinds(v, kinds));
    }
  }
}
