package dev.esgen.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbServiceClientConfiguration;
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
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClientBuilder;

/**
 * A table with a DynamoDB stream, for tests of code that consumes streams: string keys {@code pkey}
 * (partition) and {@code skey} (sort), billed per request, its stream showing what the test asks for.
 * {@link #records()} reads back everything the stream holds.
 *
 * <pre>{@code
 * StreamedTable events = StreamedTable.create(client, tables.name("events"), StreamViewType.NEW_AND_OLD_IMAGES);
 * client.putItem(b -> b.tableName(events.name()).item(Map.of(
 *     "pkey", AttributeValue.fromS("stream-1"), "skey", AttributeValue.fromS("event-1"))));
 * List<Record> written = events.records();
 * }</pre>
 */
public final class StreamedTable {

  private final DynamoDbClient client;
  private final String name;

  private StreamedTable(DynamoDbClient client, String name) {
    this.client = client;
    this.name = name;
  }

  /** Creates the table {@code name} through {@code client} and returns once it exists. */
  public static StreamedTable create(DynamoDbClient client, String name, StreamViewType viewType) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(viewType, "viewType");
    client.createTable(b -> b
        .tableName(name)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(
            AttributeDefinition.builder().attributeName("pkey").attributeType(ScalarAttributeType.S).build(),
            AttributeDefinition.builder().attributeName("skey").attributeType(ScalarAttributeType.S).build())
        .keySchema(
            KeySchemaElement.builder().attributeName("pkey").keyType(KeyType.HASH).build(),
            KeySchemaElement.builder().attributeName("skey").keyType(KeyType.RANGE).build())
        .streamSpecification(s -> s.streamEnabled(true).streamViewType(viewType)));
    client.waiter().waitUntilTableExists(b -> b.tableName(name));
    return new StreamedTable(client, name);
  }

  /** The table's name. */
  public String name() {
    return name;
  }

  /** The ARN of the table's stream. */
  public String streamArn() {
    return client.describeTable(b -> b.tableName(name)).table().latestStreamArn();
  }

  /**
   * Every record the stream holds, shard by shard and each shard's in its order: each shard read from its
   * trim horizon until a page comes back empty. The records are read through a streams client of the same
   * endpoint, region and credentials as the client the table was created with, since DynamoDB Local keeps
   * tables, and so their streams, apart by access key.
   */
  public List<Record> records() {
    try (DynamoDbStreamsClient streams = streamsClientLikeTheTables()) {
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

  private DynamoDbStreamsClient streamsClientLikeTheTables() {
    DynamoDbServiceClientConfiguration tables = client.serviceClientConfiguration();
    DynamoDbStreamsClientBuilder streams = DynamoDbStreamsClient.builder()
        .region(tables.region())
        .credentialsProvider(tables.credentialsProvider())
        .httpClientBuilder(UrlConnectionHttpClient.builder());
    tables.endpointOverride().ifPresent(streams::endpointOverride);
    return streams.build();
  }
}
