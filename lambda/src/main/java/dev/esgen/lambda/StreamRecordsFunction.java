package dev.esgen.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.esgen.runtime.error.RedactedException;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * An AWS Lambda function for a DynamoDB stream's event source mapping: converts each batch into the AWS
 * SDK's records and hands them to a {@link StreamRecordsHandler}, usually the change feed.
 *
 * <p>Subclass it and build the handler in {@link #createRecordsHandler()}; it is called once per Lambda
 * execution environment, on its first event, and the handler is kept for every later event.
 *
 * <p>The function answers with a partial batch response, so the mapping needs
 * {@code FunctionResponseTypes: [ReportBatchItemFailures]} (see {@code docs/feed-transports.md}):
 * <ul>
 *   <li>the handler takes every record: no failures are reported;
 *   <li>the handler throws: the records of that call are handed over again one by one, in order (the
 *       handler drops what it took before), and the first that still fails is reported by its sequence
 *       number; a call of one record is reported at once, as handing it over alone would repeat the
 *       failed call. Lambda then retries the batch from that record, and no later record of the shard is
 *       handled before it;
 *   <li>a record cannot be converted (a malformed event): the records before it are handed over, and it
 *       is reported as above;
 *   <li>with a safety margin ({@link #StreamRecordsFunction(Duration)}), the invocation's remaining time
 *       ({@link Context#getRemainingTimeInMillis()}) falls below it: no further record is handed over, and
 *       the first one that was not is reported as above, so that Lambda resumes from it instead of
 *       retrying the whole batch after a time-out.
 * </ul>
 * Without a margin ({@link #StreamRecordsFunction()}) the batch is handed over in one call, whatever the
 * time. With one, the function hands it over in parts, to check the time between them: one record, then
 * parts as large as everything handed over before them (1, 1, 2, 4, ... records) but no larger than what
 * the time above the margin fits at the pace so far. The first record is handed over whatever the time,
 * so that every invocation moves the shard on. The margin must hold the slowest handler call (a part's
 * records, with the change feed's retries of a failing projection); a call that runs longer than the time
 * left ends in a time-out, after which Lambda retries the whole batch.
 * Lambda's batches do not name their shard; the handler gets the stream's ARN (the records' event source)
 * in its place.
 *
 * <pre>{@code
 * public final class BalancesFunction extends StreamRecordsFunction {
 *   @Override
 *   protected StreamRecordsHandler createRecordsHandler() {
 *     EventStore store = DynamoDbEventStore.create(DynamoDbClient.create(), StoreConfig.defaults());
 *     return ChangeFeed.builder(store)                 // the projections to run
 *         .transactionalProjection("balances", BankAccountRepository.definition(store.objectMapper()),
 *             Balances::writes)
 *         .build();
 *   }
 * }
 * }</pre>
 */
public abstract class StreamRecordsFunction implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

  private static final Logger LOG = LoggerFactory.getLogger(StreamRecordsFunction.class);

  /** The longest margin: Lambda's longest function timeout, 15 minutes. */
  private static final Duration MAX_SAFETY_MARGIN = Duration.ofMinutes(15);

  /** The remaining time below which no further record is handed over; null: none, the batch goes whole. */
  private final Duration safetyMargin;
  private StreamRecordsHandler handler;

  /**
   * For subclasses, without a safety margin: each batch is handed over in one call, whatever the
   * invocation's remaining time. The handler is built on the first event, not here.
   */
  protected StreamRecordsFunction() {
    this.safetyMargin = null;
  }

  /**
   * For subclasses: stops handing records over when the invocation's remaining time falls below
   * {@code safetyMargin}, from zero to 15 minutes (Lambda's longest timeout), handing each batch over in
   * parts to check the time between them. 40 seconds suits the change feed's default retry policy (30 s
   * spent on a failing projection, and the attempt running at that deadline). Give the function's timeout
   * room for the margin and for the records' work besides: an invocation that starts with less time than
   * the margin hands over one record only.
   *
   * <pre>{@code
   * public BalancesFunction() {
   *   super(Duration.ofSeconds(40));   // with a function timeout of a few minutes
   * }
   * }</pre>
   *
   * @throws IllegalArgumentException when {@code safetyMargin} is negative or above 15 minutes
   */
  protected StreamRecordsFunction(Duration safetyMargin) {
    Objects.requireNonNull(safetyMargin, "safetyMargin");
    if (safetyMargin.isNegative() || safetyMargin.compareTo(MAX_SAFETY_MARGIN) > 0) {
      throw new IllegalArgumentException("the safety margin must be from 0 to " + MAX_SAFETY_MARGIN
          + " (Lambda's longest function timeout), not " + safetyMargin);
    }
    this.safetyMargin = safetyMargin;
  }

  /** Builds the handler every batch goes to; called once, on the execution environment's first event. */
  protected abstract StreamRecordsHandler createRecordsHandler();

  /**
   * Hands {@code event}'s records to the handler; with a safety margin, while {@code context}'s remaining
   * time is at least the margin (without a context, a test calling the function directly, there is no
   * time limit).
   *
   * @return no batch item failures when every record was handled; else the sequence number of the first
   *     record that was not
   */
  @Override
  public final StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
    List<DynamodbEvent.DynamodbStreamRecord> received =
        event == null || event.getRecords() == null ? List.of() : event.getRecords();
    if (received.isEmpty()) {
      return new StreamsEventResponse(new ArrayList<>());
    }
    String source = received.get(0).getEventSourceARN();
    List<Record> records = converted(received);
    // Built before the pace starts, so that building it (clients and the like, on a cold start) does not
    // count as the first record's work and shrink the parts after it.
    StreamRecordsHandler target = records.isEmpty() ? null : handler();
    HandOverPace pace = safetyMargin == null ? HandOverPace.unlimited() : HandOverPace.start(context, safetyMargin);
    int handled = deliver(target, source, records, pace);
    if (handled == received.size()) {
      return new StreamsEventResponse(new ArrayList<>());
    }
    String sequenceNumber = sequenceNumber(received.get(handled));
    LOG.warn("{} of {} record(s) handled; Lambda retries the batch from sequence number {}", handled, received.size(),
        sequenceNumber);
    List<StreamsEventResponse.BatchItemFailure> failures = new ArrayList<>();
    failures.add(new StreamsEventResponse.BatchItemFailure(sequenceNumber));
    return new StreamsEventResponse(failures);
  }

  /**
   * {@code received} as the SDK's records, up to the first that cannot be converted (a malformed record,
   * say a {@code null} attribute value): that one is then reported like a record the handler cannot take,
   * after the records before it were handed over, instead of failing the whole invocation.
   */
  private static List<Record> converted(List<DynamodbEvent.DynamodbStreamRecord> received) {
    List<Record> records = new ArrayList<>(received.size());
    for (DynamodbEvent.DynamodbStreamRecord record : received) {
      try {
        records.add(LambdaStreamRecords.toSdk(record));
      } catch (RuntimeException e) {
        LOG.warn("record {} of the batch (sequence number {}) cannot be converted ({})", records.size(),
            sequenceNumber(record), e.getClass().getName(), RedactedException.of(e));
        break;
      }
    }
    return records;
  }

  /** Hands {@code records} over at {@code pace}; returns how many of them, from the first, were handled. */
  private int deliver(StreamRecordsHandler target, String source, List<Record> records, HandOverPace pace) {
    if (records.isEmpty()) {
      return 0;
    }
    if (pace.startedUnderMargin()) {
      LOG.warn("the invocation started with {} ms left, less than the safety margin of {} ms: handing one record "
          + "over; give the function a longer timeout or a smaller margin", pace.startMillis(),
          pace.marginMillis());
    }
    int handled = 0;
    while (handled < records.size()) {
      int part = pace.nextPart(handled, records.size() - handled);
      if (part == 0) {
        logOutOfTime(pace, handled, records.size());
        return handled;
      }
      List<Record> parted = records.subList(handled, handled + part);
      try {
        target.handle(source, parted);
        handled += part;
      } catch (Exception e) {
        // Checked exceptions too (a Kotlin handler, a sneaky throw): a failure like any other, so that the
        // answer still names the record Lambda must retry from.
        if (part == 1) {
          // Handing the record over alone would repeat the call that just failed, and take as long again.
          LOG.warn("the handler failed on record {} of the batch, handed over alone (sequence number {}, {})", handled,
              sequenceNumber(parted.get(0)), e.getClass().getName(), RedactedException.of(e));
          return handled;
        }
        LOG.warn("the handler failed on {} record(s) from record {} of the batch ({}); handing them over one by one",
            part, handled, e.getClass().getName(), RedactedException.of(e));
        int taken = oneByOne(target, source, parted, pace, handled, records.size());
        if (taken < part) {
          return handled + taken;
        }
        handled += part;
      }
    }
    return handled;
  }

  /**
   * Hands the records of {@code part}, which failed as a whole after {@code before} records of the batch
   * of {@code total} were handled, over one at a time; returns how many of them were handled.
   */
  private int oneByOne(StreamRecordsHandler target, String source, List<Record> part, HandOverPace pace, int before,
      int total) {
    for (int i = 0; i < part.size(); i++) {
      if (!pace.timeLeft()) {
        logOutOfTime(pace, before + i, total);
        return i;
      }
      try {
        target.handle(source, List.of(part.get(i)));
      } catch (Exception e) {
        LOG.warn("the handler failed on record {} of the batch (sequence number {}, {})", before + i,
            sequenceNumber(part.get(i)), e.getClass().getName(), RedactedException.of(e));
        return i;
      }
    }
    return part.size();
  }

  private void logOutOfTime(HandOverPace pace, int handled, int total) {
    LOG.warn("{} ms left, less than the safety margin of {} ms: {} of {} record(s) handed over, no more",
        pace.remainingMillis(), pace.marginMillis(), handled, total);
  }

  private static String sequenceNumber(DynamodbEvent.DynamodbStreamRecord record) {
    return record.getDynamodb() == null ? null : record.getDynamodb().getSequenceNumber();
  }

  private static String sequenceNumber(Record record) {
    return record.dynamodb() == null ? null : record.dynamodb().sequenceNumber();
  }

  private synchronized StreamRecordsHandler handler() {
    if (handler == null) {
      handler = createRecordsHandler();
      if (handler == null) {
        throw new IllegalStateException(getClass().getName() + ".createRecordsHandler() returned null");
      }
    }
    return handler;
  }
}
