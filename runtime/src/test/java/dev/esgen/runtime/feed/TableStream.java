package dev.esgen.runtime.feed;

import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.test.DynamoDbLocal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Reads a table's DynamoDB stream on DynamoDB Local the way a transport does: describe the stream, a
 * {@code TRIM_HORIZON} iterator per shard, {@code GetRecords} until a shard has nothing more for now.
 * Each call of {@link #readNew()} goes on where the last one stopped.
 */
final class TableStream implements AutoCloseable {

  /** The records one shard had since the last read, in the shard's order. */
  record Batch(String shardId, List<Record> records) {}

  private final DynamoDbStreamsClient streams;
  private final String streamArn;
  private final Map<String, String> iterators = new LinkedHashMap<>();

  private TableStream(DynamoDbStreamsClient streams, String streamArn) {
    this.streams = streams;
    this.streamArn = streamArn;
  }

  /** The stream of {@code table}, which must have one. */
  static TableStream of(String table) {
    String arn = TestDynamo.client().describeTable(b -> b.tableName(table)).table().latestStreamArn();
    if (arn == null) {
      throw new IllegalStateException("table " + table + " has no stream");
    }
    // Not DynamoDbLocal.newStreamsClient(): DynamoDB Local keeps tables per access key, and TestDynamo's is "x".
    DynamoDbStreamsClient client = DynamoDbStreamsClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
    return new TableStream(client, arn);
  }

  /** What every shard had since the last call; a shard with nothing new is left out. */
  List<Batch> readNew() {
    for (Shard shard : streams.describeStream(b -> b.streamArn(streamArn)).streamDescription().shards()) {
      iterators.computeIfAbsent(shard.shardId(), id -> streams.getShardIterator(b -> b
          .streamArn(streamArn).shardId(id).shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator());
    }
    List<Batch> batches = new ArrayList<>();
    iterators.replaceAll((shardId, iterator) -> {
      List<Record> records = new ArrayList<>();
      String next = iterator;
      while (next != null) {
        String from = next;
        GetRecordsResponse response = streams.getRecords(b -> b.shardIterator(from));
        records.addAll(response.records());
        next = response.nextShardIterator();
        if (response.records().isEmpty()) {
          break;
        }
      }
      if (!records.isEmpty()) {
        batches.add(new Batch(shardId, records));
      }
      return next;
    });
    return batches;
  }

  /** The records of all shards since the last call, shard after shard: DynamoDB Local has one. */
  List<Record> readNewRecords() {
    return readNew().stream().flatMap(batch -> batch.records().stream()).toList();
  }

  @Override
  public void close() {
    streams.close();
  }
}
