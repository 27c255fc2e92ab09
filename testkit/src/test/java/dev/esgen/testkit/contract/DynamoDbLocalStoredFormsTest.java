package dev.esgen.testkit.contract;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.testkit.junit.Backend;
import dev.esgen.testkit.junit.EsgenTestExtension;
import dev.esgen.testkit.memory.StoredEvent;
import dev.esgen.testkit.meter.MeterId;
import dev.esgen.testkit.meter.MeterRepository;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Older stored forms on DynamoDB Local, journal layout: the items are put with the SDK by the attribute
 * names and key formats of docs/schema.md, as older code wrote them, not by esgen's own writers.
 */
class DynamoDbLocalStoredFormsTest extends StoredFormsContract {

  @RegisterExtension
  static final EsgenTestExtension ESGEN = EsgenTestExtension.create().withBackend(Backend.DYNAMODB_LOCAL);

  /** When {@link #seed} says its events were recorded. */
  static final String SEEDED_AT = "2026-01-01T00:00:00Z";

  private final DynamoDbClient client;
  private final StoreConfig config;

  DynamoDbLocalStoredFormsTest(EventStore store) {
    super(store);
    StoreInternals internals = StoreAccess.internals(store).orElseThrow();
    this.client = internals.client();
    this.config = internals.config();
  }

  @Override
  void seed(MeterId id, StoredEvent... events) {
    seed(client, config, meters(), id, events);
  }

  /**
   * Stores the new journal stream {@code id} of {@code meters} as {@code events}, as older code stored them:
   * journal items per event (recorded at {@value #SEEDED_AT}) and a head row without snapshot at version 1,
   * in one transaction.
   */
  static void seed(DynamoDbClient client, StoreConfig config, MeterRepository meters, MeterId id,
      StoredEvent... events) {
    meters.findById(id);  // the test store creates its tables when a repository first uses them
    String name = meters.definition().name();
    String aid = id.value();
    AttributeValue pkey = AttributeValue.fromS(name + "-" + shard(aid, meters.definition().shards()));
    List<TransactWriteItem> puts = new ArrayList<>();
    for (int i = 0; i < events.length; i++) {
      long seqNr = i + 1;
      Map<String, AttributeValue> item = new HashMap<>(Map.of(
          "pkey", pkey,
          "skey", AttributeValue.fromS(name + "-" + aid + "-" + String.format("%020d", seqNr)),
          "aid", AttributeValue.fromS(aid),
          "seq_nr", AttributeValue.fromN(Long.toString(seqNr)),
          "event_type", AttributeValue.fromS(events[i].type()),
          "payload", AttributeValue.fromB(SdkBytes.fromString(events[i].json(), StandardCharsets.UTF_8)),
          "occurred_at", AttributeValue.fromS(SEEDED_AT)));
      if (events[i].version() > 1) {
        item.put("event_version", AttributeValue.fromN(Integer.toString(events[i].version())));
      }
      puts.add(put(config.journalTable(), item));
    }
    puts.add(put(config.snapshotTable(), Map.of(
        "pkey", pkey,
        "skey", AttributeValue.fromS(name + "-" + aid + "-" + "0".repeat(20)),
        "aid", AttributeValue.fromS(aid),
        "seq_nr", AttributeValue.fromN("0"),
        "last_seq_nr", AttributeValue.fromN(Integer.toString(events.length)),
        "version", AttributeValue.fromN("1"))));
    client.transactWriteItems(b -> b.transactItems(puts));
  }

  private static TransactWriteItem put(String table, Map<String, AttributeValue> item) {
    return TransactWriteItem.builder().put(Put.builder().tableName(table).item(item).build()).build();
  }

  /** CRC32 of the id's UTF-8 bytes, unsigned, modulo the shards. */
  private static long shard(String aid, int shards) {
    CRC32 crc = new CRC32();
    crc.update(aid.getBytes(StandardCharsets.UTF_8));
    return crc.getValue() % shards;
  }
}
