package dev.esgen.lambda;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamViewType;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

/**
 * Converts DynamoDB stream records between the Lambda event model ({@link DynamodbEvent}, from
 * {@code aws-lambda-java-events}) and the AWS SDK v2's {@link Record}, which the change feed reads.
 *
 * <p>Every field both models have is carried over: event id, name, version and source, region, the
 * user identity (set on deletions by time to live), and the stream record's keys, new and old images,
 * sequence number, size, view type and approximate creation time; attribute values of every kind (S, N,
 * B, SS, NS, BS, M, L, NULL, BOOL), nested to any depth. The creation time is kept to the millisecond
 * (the Lambda model holds a {@link Date}; DynamoDB gives whole seconds). The event source ARN exists in
 * the Lambda model only.
 *
 * <pre>{@code
 * List<Record> records = LambdaStreamRecords.toSdk(dynamodbEvent);
 * // and back, e.g. to build the event a test sends to a function:
 * DynamodbEvent event = LambdaStreamRecords.toEvent(records, streamArn);
 * }</pre>
 */
public final class LambdaStreamRecords {

  private LambdaStreamRecords() {}

  /** The records of {@code event}, in its order. */
  public static List<Record> toSdk(DynamodbEvent event) {
    List<Record> records = new ArrayList<>();
    if (event.getRecords() != null) {
      event.getRecords().forEach(record -> records.add(toSdk(record)));
    }
    return records;
  }

  /** One record of a Lambda event as the SDK's {@link Record}. */
  public static Record toSdk(com.amazonaws.services.lambda.runtime.events.models.dynamodb.Record record) {
    Objects.requireNonNull(record, "record");
    Record.Builder converted = Record.builder()
        .eventID(record.getEventID())
        .eventName(record.getEventName())
        .eventVersion(record.getEventVersion())
        .eventSource(record.getEventSource())
        .awsRegion(record.getAwsRegion());
    if (record.getDynamodb() != null) {
      converted.dynamodb(toSdk(record.getDynamodb()));
    }
    if (record.getUserIdentity() != null) {
      converted.userIdentity(Identity.builder()
          .principalId(record.getUserIdentity().getPrincipalId())
          .type(record.getUserIdentity().getType())
          .build());
    }
    return converted.build();
  }

  /** {@code records} as the event a DynamoDB stream's event source mapping would send, from {@code eventSourceArn}. */
  public static DynamodbEvent toEvent(List<Record> records, String eventSourceArn) {
    DynamodbEvent event = new DynamodbEvent();
    event.setRecords(records.stream().map(record -> toLambda(record, eventSourceArn)).toList());
    return event;
  }

  /** One SDK record as a record of a Lambda event from {@code eventSourceArn}. */
  public static DynamodbEvent.DynamodbStreamRecord toLambda(Record record, String eventSourceArn) {
    Objects.requireNonNull(record, "record");
    DynamodbEvent.DynamodbStreamRecord converted = new DynamodbEvent.DynamodbStreamRecord();
    converted.setEventSourceARN(eventSourceArn);
    converted.setEventID(record.eventID());
    converted.setEventName(record.eventNameAsString());
    converted.setEventVersion(record.eventVersion());
    converted.setEventSource(record.eventSource());
    converted.setAwsRegion(record.awsRegion());
    if (record.dynamodb() != null) {
      converted.setDynamodb(toLambda(record.dynamodb()));
    }
    if (record.userIdentity() != null) {
      com.amazonaws.services.lambda.runtime.events.models.dynamodb.Identity identity =
          new com.amazonaws.services.lambda.runtime.events.models.dynamodb.Identity();
      identity.setPrincipalId(record.userIdentity().principalId());
      identity.setType(record.userIdentity().type());
      converted.setUserIdentity(identity);
    }
    return converted;
  }

  private static StreamRecord toSdk(com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord record) {
    StreamRecord.Builder converted = StreamRecord.builder()
        .sequenceNumber(record.getSequenceNumber())
        .sizeBytes(record.getSizeBytes())
        .streamViewType(record.getStreamViewType());
    if (record.getApproximateCreationDateTime() != null) {
      converted.approximateCreationDateTime(record.getApproximateCreationDateTime().toInstant());
    }
    if (record.getKeys() != null) {
      converted.keys(LambdaAttributeValues.toSdk(record.getKeys()));
    }
    if (record.getNewImage() != null) {
      converted.newImage(LambdaAttributeValues.toSdk(record.getNewImage()));
    }
    if (record.getOldImage() != null) {
      converted.oldImage(LambdaAttributeValues.toSdk(record.getOldImage()));
    }
    return converted.build();
  }

  private static com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord toLambda(
      StreamRecord record) {
    com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord converted =
        new com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord();
    converted.setSequenceNumber(record.sequenceNumber());
    converted.setSizeBytes(record.sizeBytes());
    if (record.streamViewTypeAsString() != null) {
      converted.setStreamViewType(StreamViewType.fromValue(record.streamViewTypeAsString()));
    }
    if (record.approximateCreationDateTime() != null) {
      converted.setApproximateCreationDateTime(Date.from(record.approximateCreationDateTime()));
    }
    if (record.hasKeys()) {
      converted.setKeys(LambdaAttributeValues.toLambda(record.keys()));
    }
    if (record.hasNewImage()) {
      converted.setNewImage(LambdaAttributeValues.toLambda(record.newImage()));
    }
    if (record.hasOldImage()) {
      converted.setOldImage(LambdaAttributeValues.toLambda(record.oldImage()));
    }
    return converted;
  }
}
