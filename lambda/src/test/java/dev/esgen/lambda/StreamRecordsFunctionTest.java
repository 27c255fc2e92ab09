package dev.esgen.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.StreamedTable;
import dev.esgen.test.TablePrefix;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** The Lambda function, given events built from DynamoDB Local's real stream. */
@ExtendWith(DynamoDbLocalExtension.class)
class StreamRecordsFunctionTest {

  private static String streamArn;
  private static List<Record> records;

  @BeforeAll
  static void writeAndRead(DynamoDbClient client, TablePrefix tables) {
    StreamedTable stream = StreamedTable.create(client, tables.name("events"), StreamViewType.NEW_AND_OLD_IMAGES);
    for (int i = 1; i <= 6; i++) {
      String key = "event-" + i;
      client.putItem(b -> b.tableName(stream.name()).item(Map.of(
          "pkey", AttributeValue.fromS("stream-1"),
          "skey", AttributeValue.fromS(key),
          "payload", AttributeValue.fromS("body of " + key))));
    }
    streamArn = stream.streamArn();
    records = stream.records();
    assertEquals(6, records.size());
  }

  /** Takes what it is given unless {@code refuses} says no; keeps what it took and counts its calls. */
  private static final class Handler implements StreamRecordsHandler {
    final List<Record> taken = new ArrayList<>();
    final List<String> sources = new ArrayList<>();
    final Predicate<List<Record>> refuses;
    final boolean checked;
    int calls;

    Handler(Predicate<List<Record>> refuses) {
      this(refuses, false);
    }

    /** With {@code checked}, refuses with an IOException thrown undeclared, as a Kotlin handler may. */
    Handler(Predicate<List<Record>> refuses, boolean checked) {
      this.refuses = refuses;
      this.checked = checked;
    }

    @Override
    public void handle(String shardId, List<Record> batch) {
      calls++;
      sources.add(shardId);
      if (refuses.test(batch)) {
        throw checked ? StreamRecordsFunctionTest.<RuntimeException>sneakily(new IOException("refused"))
            : new IllegalStateException("refused");
      }
      batch.stream().filter(r -> !taken.contains(r)).forEach(taken::add);
    }
  }

  /** A function whose handler is {@code handler}, counting how often it was asked to build it. */
  private static final class Function extends StreamRecordsFunction {
    final Handler handler;
    int created;

    Function(Handler handler) {
      this.handler = handler;
    }

    @Override
    protected StreamRecordsHandler createRecordsHandler() {
      created++;
      return handler;
    }
  }

  private static DynamodbEvent event(List<Record> batch) {
    return LambdaStreamRecords.toEvent(batch, streamArn);
  }

  private static List<String> failures(StreamsEventResponse response) {
    return response.getBatchItemFailures().stream().map(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
        .toList();
  }

  @Test
  void theHandlerGetsTheStreamsRecordsUnchangedInOrderAndIsBuiltOnce() {
    Function function = new Function(new Handler(batch -> false));

    StreamsEventResponse first = function.handleRequest(event(records.subList(0, 3)), null);
    StreamsEventResponse second = function.handleRequest(event(records.subList(3, 6)), null);

    assertEquals(List.of(), failures(first));
    assertEquals(List.of(), failures(second));
    assertEquals(records, function.handler.taken);
    assertEquals(List.of(streamArn, streamArn), function.handler.sources);
    assertEquals(1, function.created);
  }

  @Test
  void aRecordTheHandlerCannotTakeIsReportedSoThatLambdaRetriesFromItAndNothingAfterItIsHandled() {
    Record poison = records.get(3);
    Function function = new Function(new Handler(batch -> batch.contains(poison)));

    StreamsEventResponse response = function.handleRequest(event(records), null);

    assertEquals(List.of(poison.dynamodb().sequenceNumber()), failures(response));
    assertEquals(records.subList(0, 3), function.handler.taken);
    assertEquals(1 + 4, function.handler.calls, "the batch, then one by one up to the poison record");
  }

  @Test
  void aRecordThatCannotBeConvertedIsReportedAfterTheRecordsBeforeItAreHandedOver() {
    Record malformed = records.get(3);
    DynamodbEvent event = event(records);
    // JSON such as "NewImage": {"payload": null} reaches the function so: a value of no kind, not even none.
    event.getRecords().get(3).getDynamodb().getNewImage().put("payload", null);
    Function function = new Function(new Handler(batch -> false));

    StreamsEventResponse response = function.handleRequest(event, null);

    assertEquals(List.of(malformed.dynamodb().sequenceNumber()), failures(response));
    assertEquals(records.subList(0, 3), function.handler.taken);
  }

  @Test
  void aCheckedExceptionFromTheHandlerIsReportedAsAnyOtherFailure() {
    Record poison = records.get(3);
    Function function = new Function(new Handler(batch -> batch.contains(poison), true));

    StreamsEventResponse response = function.handleRequest(event(records), null);

    assertEquals(List.of(poison.dynamodb().sequenceNumber()), failures(response));
    assertEquals(records.subList(0, 3), function.handler.taken);
  }

  /** Throws {@code checked} undeclared. */
  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException sneakily(Throwable checked) throws T {
    throw (T) checked;
  }

  @Test
  void aBatchThatFailsOnceIsHandedOverRecordByRecordAndReportsNoFailureWhenAllAreTaken() {
    int[] failuresLeft = {1};
    Function function = new Function(new Handler(batch -> failuresLeft[0]-- > 0));

    StreamsEventResponse response = function.handleRequest(event(records), null);

    assertEquals(List.of(), failures(response));
    assertEquals(records, function.handler.taken);
  }

  @Test
  void aHandlerDownForTheWholeBatchReportsTheFirstRecord() {
    Function function = new Function(new Handler(batch -> true));

    StreamsEventResponse response = function.handleRequest(event(records), null);

    assertEquals(List.of(records.get(0).dynamodb().sequenceNumber()), failures(response));
    assertTrue(function.handler.taken.isEmpty());
  }

  @Test
  void aBatchOfOneRecordTheHandlerCannotTakeIsReportedWithoutHandingItOverAgain() {
    Record only = records.get(2);
    Function function = new Function(new Handler(batch -> true));

    StreamsEventResponse response = function.handleRequest(event(List.of(only)), null);

    assertEquals(List.of(only.dynamodb().sequenceNumber()), failures(response));
    assertEquals(1, function.handler.calls, "handing the one record over alone is the call that just failed");
  }

  @Test
  void anEmptyEventReportsNoFailureAndBuildsNothing() {
    Function function = new Function(new Handler(batch -> true));

    assertEquals(List.of(), failures(function.handleRequest(new DynamodbEvent(), null)));
    assertEquals(0, function.created);
  }

  @Test
  void aFunctionWhoseHandlerIsMissingSaysWhichClassReturnedNothing() {
    StreamRecordsFunction broken = new StreamRecordsFunction() {
      @Override
      protected StreamRecordsHandler createRecordsHandler() {
        return null;
      }
    };

    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> broken.handleRequest(event(records.subList(0, 1)), null));
    assertTrue(e.getMessage().endsWith(".createRecordsHandler() returned null"), e.getMessage());
  }
}
