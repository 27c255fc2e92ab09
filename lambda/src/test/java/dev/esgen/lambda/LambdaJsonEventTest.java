package dev.esgen.lambda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.StreamedTable;
import dev.esgen.test.TablePrefix;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** Events as JSON, read and written by the serializer the Lambda Java runtime uses. */
@ExtendWith(DynamoDbLocalExtension.class)
class LambdaJsonEventTest {

  private static final PojoSerializer<DynamodbEvent> LAMBDA_JSON =
      LambdaEventSerializers.serializerFor(DynamodbEvent.class, LambdaJsonEventTest.class.getClassLoader());

  @Test
  void realStreamRecordsSurviveTheJsonLambdaSendsThem(DynamoDbClient client, TablePrefix tables) {
    StreamedTable stream = StreamedTable.create(client, tables.name("events"), StreamViewType.NEW_AND_OLD_IMAGES);
    client.putItem(b -> b.tableName(stream.name()).item(LambdaStreamRecordsTest.everyKind("one")));
    client.deleteItem(b -> b.tableName(stream.name()).key(Map.of(
        "pkey", AttributeValue.fromS("every-kind"), "skey", AttributeValue.fromS("one"))));
    List<Record> records = stream.records();

    ByteArrayOutputStream json = new ByteArrayOutputStream();
    LAMBDA_JSON.toJson(LambdaStreamRecords.toEvent(records, stream.streamArn()), json);
    DynamodbEvent received = LAMBDA_JSON.fromJson(json.toString(StandardCharsets.UTF_8));

    assertEquals(records, LambdaStreamRecords.toSdk(received));
  }

  @Test
  void anEventInLambdasJsonReachesTheHandlerWithEveryValueDecoded() {
    String json = """
        {"Records": [{
          "eventID": "c4ca4238a0b923820dcc509a6f75849b",
          "eventName": "INSERT",
          "eventVersion": "1.1",
          "eventSource": "aws:dynamodb",
          "awsRegion": "eu-west-1",
          "eventSourceARN": "arn:aws:dynamodb:eu-west-1:111122223333:table/streams/stream/2026-11-23T10:00:00.000",
          "dynamodb": {
            "ApproximateCreationDateTime": 1795428000,
            "Keys": {"p": {"S": "bank-account#42"}, "i": {"N": "9223372036854775807"}},
            "NewImage": {
              "p": {"S": "bank-account#42"},
              "i": {"N": "9223372036854775807"},
              "v": {"N": "3"},
              "e": {"L": [{"M": {"t": {"S": "2026-11-23T10:00:00Z"}, "d": {"B": "eyJjZW50cyI6NTAwfQ=="}}}]},
              "c": {"L": [{"S": "money-deposited"}]},
              "tags": {"SS": ["a", "b"]},
              "shares": {"NS": ["1", "2"]},
              "blobs": {"BS": ["AAE="]},
              "closed": {"BOOL": false},
              "note": {"NULL": true}
            },
            "SequenceNumber": "111100000000012345678901",
            "SizeBytes": 312,
            "StreamViewType": "NEW_IMAGE"
          }
        }]}
        """;
    List<Record> handled = new ArrayList<>();
    StreamRecordsFunction function = new StreamRecordsFunction() {
      @Override
      protected StreamRecordsHandler createRecordsHandler() {
        return (shardId, records) -> handled.addAll(records);
      }
    };

    StreamsEventResponse response = function.handleRequest(LAMBDA_JSON.fromJson(json), null);

    assertEquals(List.of(), response.getBatchItemFailures());
    Record record = handled.get(0);
    assertEquals("INSERT", record.eventNameAsString());
    assertEquals(Instant.parse("2026-11-23T10:00:00Z"), record.dynamodb().approximateCreationDateTime());
    assertEquals("111100000000012345678901", record.dynamodb().sequenceNumber());
    assertEquals(312L, record.dynamodb().sizeBytes());
    assertEquals("NEW_IMAGE", record.dynamodb().streamViewTypeAsString());
    Map<String, AttributeValue> image = record.dynamodb().newImage();
    assertEquals("3", image.get("v").n());
    assertEquals("{\"cents\":500}", image.get("e").l().get(0).m().get("d").b().asUtf8String());
    assertEquals("money-deposited", image.get("c").l().get(0).s());
    assertEquals(List.of("a", "b"), image.get("tags").ss());
    assertEquals(List.of("1", "2"), image.get("shares").ns());
    assertArrayEquals(new byte[] {0, 1}, image.get("blobs").bs().get(0).asByteArray());
    assertEquals(false, image.get("closed").bool());
    assertEquals(true, image.get("note").nul());
  }
}
