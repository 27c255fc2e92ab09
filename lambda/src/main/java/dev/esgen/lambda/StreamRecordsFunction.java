package dev.esgen.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.esgen.runtime.error.RedactedException;
import dev.esgen.runtime.feed.StreamRecordsHandler;
import java.util.ArrayList;
import java.util.List;
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
 *   <li>the handler takes the whole batch: no failures are reported;
 *   <li>the handler throws: the records are handed over again one by one, in order (the handler drops
 *       what it took before), and the first that still fails is reported by its sequence number; a
 *       batch of one record is reported at once, as handing it over alone would repeat the failed call. Lambda
 *       then retries the batch from that record, and no later record of the shard is handled before it;
 *   <li>a record cannot be converted (a malformed event): the records before it are handed over, and it
 *       is reported as above.
 * </ul>
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

  private StreamRecordsHandler handler;

  /** For subclasses; the handler is built on the first event, not here. */
  protected StreamRecordsFunction() {}

  /** Builds the handler every batch goes to; called once, on the execution environment's first event. */
  protected abstract StreamRecordsHandler createRecordsHandler();

  /**
   * Hands {@code event}'s records to the handler.
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
    int handled = deliver(source, converted(received));
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

  /** Hands {@code records} over; returns how many of them, from the first, were handled. */
  private int deliver(String source, List<Record> records) {
    if (records.isEmpty()) {
      return 0;
    }
    StreamRecordsHandler target = handler();
    try {
      target.handle(source, records);
      return records.size();
    } catch (Exception e) {
      // Checked exceptions too (a Kotlin handler, a sneaky throw): a failure like any other, so that the
      // answer still names the record Lambda must retry from.
      if (records.size() == 1) {
        // Handing the record over alone would repeat the call that just failed, and take as long again.
        LOG.warn("the handler failed on the batch's one record (sequence number {}, {})", sequenceNumber(records.get(0)),
            e.getClass().getName(), RedactedException.of(e));
        return 0;
      }
      LOG.warn("the handler failed on a batch of {} record(s) ({}); handing them over one by one", records.size(),
          e.getClass().getName(), RedactedException.of(e));
    }
    for (int i = 0; i < records.size(); i++) {
      try {
        target.handle(source, List.of(records.get(i)));
      } catch (Exception e) {
        LOG.warn("the handler failed on record {} of the batch (sequence number {}, {})", i,
            sequenceNumber(records.get(i)), e.getClass().getName(), RedactedException.of(e));
        return i;
      }
    }
    return records.size();
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
