package dev.esgen.runtime.streams;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsRequest;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorRequest;
import software.amazon.awssdk.services.dynamodb.model.GetShardIteratorResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.SequenceNumberRange;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamStatus;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A DynamoDB stream with as many shards as a test lays out, served through the three calls a consumer
 * makes: DescribeStream (two shards a page), GetShardIterator and GetRecords. DynamoDB Local's streams
 * have one shard, so splits, roll-overs, trimming and expired iterators are laid out here, following the
 * documented behaviour: sequence numbers grow across the stream, a closed shard's GetRecords returns no
 * next iterator once its last record was read, an iterator below the trim horizon or after an expiry
 * fails with the service's exception.
 */
final class SimulatedStream implements DynamoDbStreamsClient {

  static final String TABLE = "simulated";
  static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/" + TABLE + "/stream/2026-11-23T10:00:00.000";

  private static final int SHARDS_PER_PAGE = 2;

  private final Map<String, SimulatedShard> shards = new LinkedHashMap<>();
  private final List<GetShardIteratorRequest> iteratorRequests = new ArrayList<>();
  private long sequence = 1000;
  private StreamStatus status = StreamStatus.ENABLED;
  private int iteratorGeneration;

  private static final class SimulatedShard {
    final String id;
    final String parent;
    final String startingSequenceNumber;
    final List<Record> records = new ArrayList<>();
    boolean closed;
    boolean listed = true;
    int trimmedBelow;
    int notFound;

    SimulatedShard(String id, String parent, String startingSequenceNumber) {
      this.id = id;
      this.parent = parent;
      this.startingSequenceNumber = startingSequenceNumber;
    }
  }

  /** Adds an open shard; {@code parent} may be {@code null}. Shards are listed in the order they are added. */
  SimulatedStream shard(String id, String parent) {
    shards.put(id, new SimulatedShard(id, parent, sequenceNumber(sequence + 1)));
    return this;
  }

  /** Appends a record of the item with partition key {@code key} to open shard {@code shardId}. */
  SimulatedStream put(String shardId, String... keys) {
    SimulatedShard shard = shards.get(shardId);
    if (shard.closed) {
      throw new IllegalStateException("shard " + shardId + " is closed");
    }
    for (String key : keys) {
      String sequenceNumber = sequenceNumber(++sequence);
      shard.records.add(Record.builder()
          .eventID("event-" + sequenceNumber)
          .eventName(OperationType.INSERT)
          .dynamodb(StreamRecord.builder()
              .keys(Map.of("pkey", AttributeValue.fromS(key)))
              .sequenceNumber(sequenceNumber)
              .build())
          .build());
    }
    return this;
  }

  /** Closes {@code shardId}: no more records, and an ending sequence number in the listing. */
  SimulatedStream close(String shardId) {
    shards.get(shardId).closed = true;
    return this;
  }

  /** Drops {@code shardId} from the listing, as DynamoDB does once all its records are older than 24 hours. */
  SimulatedStream unlist(String shardId) {
    shards.get(shardId).listed = false;
    return this;
  }

  /**
   * Lets the next {@code times} GetShardIterator requests for {@code shardId} answer that it does not exist
   * although the stream lists it, as DynamoDB may for a stream that is not active yet.
   */
  SimulatedStream notFound(String shardId, int times) {
    shards.get(shardId).notFound = times;
    return this;
  }

  /**
   * Sets the status DescribeStream gives: DISABLING or DISABLED once the table's stream was switched off.
   * The shards stay as they are; close them as DynamoDB does.
   */
  SimulatedStream status(StreamStatus status) {
    this.status = status;
    return this;
  }

  /** Trims the first {@code count} records of {@code shardId}. */
  SimulatedStream trim(String shardId, int count) {
    shards.get(shardId).trimmedBelow = count;
    return this;
  }

  /** Lets every iterator handed out so far expire. */
  void expireIterators() {
    iteratorGeneration++;
  }

  /** The sequence number of record {@code index} (from 0) of {@code shardId}. */
  String sequenceNumberOf(String shardId, int index) {
    return shards.get(shardId).records.get(index).dynamodb().sequenceNumber();
  }

  synchronized List<GetShardIteratorRequest> iteratorRequests() {
    return List.copyOf(iteratorRequests);
  }

  @Override
  public synchronized DescribeStreamResponse describeStream(DescribeStreamRequest request) {
    List<SimulatedShard> listed = shards.values().stream().filter(s -> s.listed).toList();
    int from = 0;
    if (request.exclusiveStartShardId() != null) {
      from = listed.indexOf(shards.get(request.exclusiveStartShardId())) + 1;
    }
    List<Shard> page = listed.subList(from, Math.min(from + SHARDS_PER_PAGE, listed.size())).stream()
        .map(this::describe)
        .toList();
    String last = from + SHARDS_PER_PAGE < listed.size() ? page.get(page.size() - 1).shardId() : null;
    return DescribeStreamResponse.builder()
        .streamDescription(d -> d.streamArn(ARN).tableName(TABLE).streamStatus(status).shards(page)
            .lastEvaluatedShardId(last))
        .build();
  }

  @Override
  public synchronized GetShardIteratorResponse getShardIterator(GetShardIteratorRequest request) {
    iteratorRequests.add(request);
    SimulatedShard shard = shards.get(request.shardId());
    if (shard == null || !shard.listed || shard.notFound > 0) {
      if (shard != null && shard.notFound > 0) {
        shard.notFound--;
      }
      throw ResourceNotFoundException.builder().message("Requested resource not found: Shard does not exist").build();
    }
    int position = switch (request.shardIteratorType()) {
      case TRIM_HORIZON -> shard.trimmedBelow;
      case LATEST -> shard.records.size();
      case AFTER_SEQUENCE_NUMBER -> indexOf(shard, request.sequenceNumber()) + 1;
      case AT_SEQUENCE_NUMBER -> indexOf(shard, request.sequenceNumber());
      default -> throw new IllegalArgumentException(request.shardIteratorTypeAsString());
    };
    if (position < shard.trimmedBelow) {
      throw trimmed();
    }
    return GetShardIteratorResponse.builder().shardIterator(iterator(shard, position)).build();
  }

  @Override
  public synchronized GetRecordsResponse getRecords(GetRecordsRequest request) {
    String[] parts = request.shardIterator().split("\\|");
    SimulatedShard shard = shards.get(parts[0]);
    int position = Integer.parseInt(parts[1]);
    if (Integer.parseInt(parts[2]) < iteratorGeneration) {
      throw ExpiredIteratorException.builder().message("Iterator expired").build();
    }
    if (position < shard.trimmedBelow) {
      throw trimmed();
    }
    int limit = request.limit() == null ? 1000 : request.limit();
    int end = Math.min(position + limit, shard.records.size());
    List<Record> records = List.copyOf(shard.records.subList(position, end));
    String next = shard.closed && end == shard.records.size() ? null : iterator(shard, end);
    return GetRecordsResponse.builder().records(records).nextShardIterator(next).build();
  }

  @Override
  public String serviceName() {
    return SERVICE_NAME;
  }

  @Override
  public void close() {}

  private Shard describe(SimulatedShard shard) {
    String ending = shard.closed
        ? (shard.records.isEmpty() ? shard.startingSequenceNumber : shard.records.get(shard.records.size() - 1)
            .dynamodb().sequenceNumber())
        : null;
    return Shard.builder()
        .shardId(shard.id)
        .parentShardId(shard.parent)
        .sequenceNumberRange(SequenceNumberRange.builder()
            .startingSequenceNumber(shard.startingSequenceNumber)
            .endingSequenceNumber(ending)
            .build())
        .build();
  }

  private String iterator(SimulatedShard shard, int position) {
    return shard.id + "|" + position + "|" + iteratorGeneration;
  }

  private static int indexOf(SimulatedShard shard, String sequenceNumber) {
    for (int i = 0; i < shard.records.size(); i++) {
      if (shard.records.get(i).dynamodb().sequenceNumber().equals(sequenceNumber)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no record " + sequenceNumber + " in shard " + shard.id);
  }

  private static TrimmedDataAccessException trimmed() {
    return TrimmedDataAccessException.builder().message("The operation attempted to read past the oldest stream record").build();
  }

  private static String sequenceNumber(long value) {
    return String.format("%021d", value);
  }
}
