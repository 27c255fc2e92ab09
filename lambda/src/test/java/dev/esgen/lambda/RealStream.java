package dev.esgen.lambda;

import dev.esgen.test.DynamoDbLocal;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** A table on DynamoDB Local with a NEW_AND_OLD_IMAGES stream, and the records its stream holds. */
final class RealStream {

  private final DynamoDbClient client;
  private final String table;

  private RealStream(DynamoDbClient client, String table) {
    this.client = client;
    this.table = table;
  }

  static RealStream create(DynamoDbClient client, String table) {
    client.createTable(b -> b
        .tableName(table)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(
            AttributeDefinition.builder().attributeName("pkey").attributeType(ScalarAttributeType.S).build(),
            AttributeDefinition.builder().attributeName("skey").attributeType(ScalarAttributeType.S).build())
        .keySchema(
            KeySchemaElement.builder().attributeName("pkey").keyType(KeyType.HASH).build(),
            KeySchemaElement.builder().attributeName("skey").keyType(KeyType.RANGE).build())
        .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
    client.waiter().waitUntilTableExists(b -> b.tableName(table));
    return new RealStream(client, table);
  }

  String table() {
    return table;
  }

  String streamArn() {
    return client.describeTable(b -> b.tableName(table)).table().latestStreamArn();
  }

  /** Every record the stream holds, shard by shard, each shard in its order. */
  List<Record> records() {
    try (DynamoDbStreamsClient streams = DynamoDbLocal.shared().newStreamsClient()) {
      String arn = streamArn();
      List<Record> records = new ArrayList<>();
      for (Shard shard : streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards()) {
        String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
            .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        while (iterator != null) {
          String from = iterator;
          GetRecordsResponse page = streams.getRecords(b -> b.shardIterator(from));
          if (page.records().isEmpty()) {
            break;
          }
          records.addAll(page.records());
          iterator = page.nextShardIterator();
        }
      }
      return records;
    }
  }
}
