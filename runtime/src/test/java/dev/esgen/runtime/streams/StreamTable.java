package dev.esgen.runtime.streams;

import dev.esgen.test.DynamoDbLocal;
import dev.esgen.test.StreamedTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** A {@link StreamedTable} on DynamoDB Local, items written to it in a known order. */
final class StreamTable {

  /** Every item's partition key: one item collection, so DynamoDB Local streams them in write order. */
  static final String PARTITION = "stream-1";

  private final DynamoDbClient client;
  private final StreamedTable table;
  private int written;

  private StreamTable(DynamoDbClient client, StreamedTable table) {
    this.client = client;
    this.table = table;
  }

  /** Creates {@code name} with keys pkey/skey and a NEW_IMAGE stream. */
  static StreamTable create(DynamoDbClient client, String name) {
    return new StreamTable(client, StreamedTable.create(client, name, StreamViewType.NEW_IMAGE));
  }

  static DynamoDbStreamsClient streamsClient() {
    return DynamoDbLocal.shared().newStreamsClient();
  }

  String name() {
    return table.name();
  }

  /** Writes {@code count} more items, each with a payload {@code secret}; returns their sort keys in order. */
  List<String> write(int count, String secret) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String key = String.format("event-%05d", ++written);
      client.putItem(b -> b.tableName(table.name()).item(Map.of(
          "pkey", AttributeValue.fromS(PARTITION),
          "skey", AttributeValue.fromS(key),
          "payload", AttributeValue.fromS(secret))));
      keys.add(key);
    }
    return keys;
  }

  /** The sort keys of the items {@code records} are of, in their order. */
  static List<String> keys(List<Record> records) {
    return records.stream().map(r -> r.dynamodb().keys().get("skey").s()).toList();
  }
}
