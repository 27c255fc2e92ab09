package dev.esgen.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.StreamedTable;
import dev.esgen.test.TablePrefix;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
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

  /**
   * Takes what it is given unless {@code refuses} says no; keeps what it took, counts its calls and the
   * records in each, and runs {@code working} on every batch first (to spend a fake context's time).
   */
  private static final class Handler implements StreamRecordsHandler {
    final List<Record> taken = new ArrayList<>();
    final List<String> sources = new ArrayList<>();
    final List<Integer> sizes = new ArrayList<>();
    final Predicate<List<Record>> refuses;
    final boolean checked;
    Consumer<List<Record>> working = batch -> {};
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
      sizes.add(batch.size());
      working.accept(batch);
      if (refuses.test(batch)) {
        throw checked ? StreamRecordsFunctionTest.<RuntimeException>sneakily(new IOException("refused"))
            : new IllegalStateException("refused");
      }
      batch.stream().filter(r -> !taken.contains(r)).forEach(taken::add);
    }
  }

  /** A function whose handler is {@code handler}, counting how often it was asked to build it. */
  private static class Function extends StreamRecordsFunction {
    final Handler handler;
    int created;

    Function(Handler handler) {
      this.handler = handler;
    }

    Function(Handler handler, Duration safetyMargin) {
      super(safetyMargin);
      this.handler = handler;
    }

    @Override
    protected StreamRecordsHandler createRecordsHandler() {
      created++;
      return handler;
    }
  }

  /** A Lambda context whose remaining time goes down only when a test spends it. */
  private static final class FakeContext implements Context {
    int remainingMillis;

    FakeContext(int remainingMillis) {
      this.remainingMillis = remainingMillis;
    }

    void spend(int millis) {
      remainingMillis -= millis;
    }

    @Override
    public int getRemainingTimeInMillis() {
      return remainingMillis;
    }

    @Override
    public String getAwsRequestId() {
      return "request-1";
    }

    @Override
    public String getLogGroupName() {
      return null;
    }

    @Override
    public String getLogStreamName() {
      return null;
    }

    @Override
    public String getFunctionName() {
      return "balances";
    }

    @Override
    public String getFunctionVersion() {
      return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
      return null;
    }

    @Override
    public CognitoIdentity getIdentity() {
      return null;
    }

    @Override
    public ClientContext getClientContext() {
      return null;
    }

    @Override
    public int getMemoryLimitInMB() {
      return 1024;
    }

    @Override
    public LambdaLogger getLogger() {
      return null;
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
  void belowTheSafetyMarginNoFurtherRecordIsHandedOverAndTheFirstNotHandedOverIsReported() {
    FakeContext context = new FakeContext(12_000);
    Handler handler = new Handler(batch -> false);
    handler.working = batch -> context.spend(2_000 * batch.size());
    Function function = new Function(handler, Duration.ofSeconds(5));

    StreamsEventResponse response = function.handleRequest(event(records), context);

    // 12 s at the start; after each record 10, 8, 6, 4 s: the fourth was handed over with 6 s left, at
    // least the margin, and left 4 s, less than it.
    assertEquals(records.subList(0, 4), handler.taken);
    assertEquals(List.of(records.get(4).dynamodb().sequenceNumber()), failures(response));
    // After two records in 4 s, 3 s above the margin fit one more at that pace, not the two doubling allows.
    assertEquals(List.of(1, 1, 1, 1), handler.sizes);
  }

  @Test
  void withTimeToSpareTheBatchIsHandedOverInPartsAsLargeAsEverythingBeforeThemAndAllIsTaken() {
    FakeContext context = new FakeContext(900_000);
    Function function = new Function(new Handler(batch -> false), Duration.ofSeconds(40));

    StreamsEventResponse response = function.handleRequest(event(records), context);

    assertEquals(List.of(), failures(response));
    assertEquals(records, function.handler.taken);
    assertEquals(List.of(1, 1, 2, 2), function.handler.sizes, "1, 1, 2, then the 2 records left of the 4 allowed");
  }

  @Test
  void anInvocationStartingWithLessTimeThanTheMarginHandsOverTheFirstRecordOnly() {
    FakeContext context = new FakeContext(3_000);        // Lambda's default timeout, under a 40 s margin
    Function function = new Function(new Handler(batch -> false), Duration.ofSeconds(40));

    StreamsEventResponse response = function.handleRequest(event(records), context);

    assertEquals(records.subList(0, 1), function.handler.taken);
    assertEquals(List.of(records.get(1).dynamodb().sequenceNumber()), failures(response));
  }

  @Test
  void aFailedPartIsHandedOverOneByOneOnlyWhileTheTimeLeftIsAtLeastTheMargin() {
    Record poison = records.get(3);
    FakeContext context = new FakeContext(100_000);
    Handler handler = new Handler(batch -> batch.contains(poison));
    // The projection fails on the poison record and the change feed retries it for 96 s before giving up.
    handler.working = batch -> context.spend(batch.contains(poison) ? 96_000 : 0);
    Function function = new Function(handler, Duration.ofSeconds(5));

    StreamsEventResponse response = function.handleRequest(event(records), context);

    // Records 0 and 1 alone, then 2 and 3 together, which failed with 4 s left: 2 is not handed over alone.
    assertEquals(records.subList(0, 2), handler.taken);
    assertEquals(List.of(records.get(2).dynamodb().sequenceNumber()), failures(response));
    assertEquals(List.of(1, 1, 2), handler.sizes);
  }

  @Test
  void aPartThatFailsOnceAndIsTakenRecordByRecordIsFollowedByTheRestOfTheBatch() {
    FakeContext context = new FakeContext(900_000);
    int[] failuresLeft = {1};
    Handler handler = new Handler(batch -> batch.size() == 2 && failuresLeft[0]-- > 0);
    Function function = new Function(handler, Duration.ofSeconds(40));

    StreamsEventResponse response = function.handleRequest(event(records), context);

    assertEquals(List.of(), failures(response));
    assertEquals(records, handler.taken);
    assertEquals(List.of(1, 1, 2, 1, 1, 2), handler.sizes, "the failed part one by one, then the next part");
  }

  @Test
  void buildingTheHandlerOnAColdStartDoesNotCountAsTheFirstRecordsWork() {
    FakeContext context = new FakeContext(100_000);
    Handler handler = new Handler(batch -> false);
    handler.working = batch -> context.spend(1_000 * batch.size());
    Function function = new Function(handler, Duration.ofSeconds(5)) {
      @Override
      protected StreamRecordsHandler createRecordsHandler() {
        context.spend(50_000);                           // SDK clients, a first connection, ...
        return super.createRecordsHandler();
      }
    };

    StreamsEventResponse response = function.handleRequest(event(records), context);

    assertEquals(List.of(), failures(response));
    // At 1 s per record with 50 s left, the parts double as with time to spare; counting the 50 s of the
    // build as the first record's would have kept them at one record.
    assertEquals(List.of(1, 1, 2, 2), handler.sizes);
  }

  @Test
  void withoutASafetyMarginTheBatchIsHandedOverInOneCallWhateverTheTimeLeft() {
    FakeContext context = new FakeContext(3_000);        // less than any sensible margin
    Handler handler = new Handler(batch -> false);
    handler.working = batch -> context.spend(1_000 * batch.size());
    Function function = new Function(handler);

    StreamsEventResponse response = function.handleRequest(event(records), context);

    assertEquals(List.of(), failures(response));
    assertEquals(records, handler.taken);
    assertEquals(List.of(records.size()), handler.sizes);
  }

  @Test
  void aSafetyMarginBelowZeroOrAboveLambdasLongestTimeoutIsRefusedNamingTheLimits() {
    Handler handler = new Handler(batch -> false);

    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> new Function(handler, Duration.ofSeconds(-1)));
    IllegalArgumentException tooLong =
        assertThrows(IllegalArgumentException.class, () -> new Function(handler, Duration.ofMinutes(16)));

    assertEquals("the safety margin must be from 0 to PT15M (Lambda's longest function timeout), not PT-1S",
        negative.getMessage());
    assertEquals("the safety margin must be from 0 to PT15M (Lambda's longest function timeout), not PT16M",
        tooLong.getMessage());
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
