package dev.esgen.runtime.feed;

import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Takes the DynamoDB Streams records of one shard, in the shard's order, and delivers the events in them.
 *
 * <p>This is where a transport hands records over: the in-process poller and the AWS Lambda handler both
 * call it with each batch they read. A call returns only when every event in {@code records} has been
 * delivered (or was seen before); when it throws, the caller sends the same records again, from its
 * last checkpoint. Records may therefore arrive more than once; implementations drop what they have seen.
 *
 * <pre>{@code
 * StreamRecordsHandler handler = changeFeed;            // the projections to run
 * handler.handle(shardId, getRecordsResponse.records());
 * }</pre>
 */
@FunctionalInterface
public interface StreamRecordsHandler {

  /**
   * Delivers the events in {@code records}, read from shard {@code shardId} in its order.
   *
   * @throws RuntimeException when some event could not be delivered; the caller sends the records again
   */
  void handle(String shardId, List<Record> records);
}
