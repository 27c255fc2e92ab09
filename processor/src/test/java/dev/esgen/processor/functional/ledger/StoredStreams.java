package dev.esgen.processor.functional.ledger;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Writes streams as earlier code stored them: items put with the SDK, under the attribute names
 * docs/schema.md lists, with none of esgen's runtime involved. Events written before versions existed,
 * or at version 1, have no version attribute; snapshots written before fingerprints existed have none.
 */
final class StoredStreams {

  private static final Instant STORED_AT = Instant.parse("2024-03-01T09:00:00Z");
  private static final int SHARDS = 4;

  private final DynamoDbClient client;

  StoredStreams(DynamoDbClient client) {
    this.client = client;
  }

  /**
   * An event as stored.
   *
   * @param version its version attribute; 0 for none
   */
  record Event(String type, int version, String json) {

    /** An event stored without a version, as every event was before versions existed. */
    static Event of(String type, String json) {
      return new Event(type, 0, json);
    }
  }

  /**
   * A snapshot as stored.
   *
   * @param seqNr the number of events folded into it
   * @param fingerprint its fingerprint attribute; null for none
   */
  record Snapshot(long seqNr, String json, String fingerprint) {}

  /** The stream {@code aid} of {@code aggregate} in the journal layout: one item per event and the head row. */
  void journal(String journalTable, String snapshotTable, String aggregate, String aid, List<Event> events,
      Snapshot snapshot) {
    String pkey = aggregate + "-" + shard(aid);
    for (int k = 0; k < events.size(); k++) {
      Event event = events.get(k);
      long seqNr = k + 1;
      Map<String, AttributeValue> item = new HashMap<>(Map.of(
          "pkey", s(pkey),
          "skey", s(aggregate + "-" + aid + "-" + String.format("%020d", seqNr)),
          "aid", s(aid),
          "seq_nr", n(seqNr),
          "event_type", s(event.type()),
          "payload", b(event.json()),
          "occurred_at", s(STORED_AT.plusSeconds(seqNr).toString())));
      if (event.version() > 0) {
        item.put("event_version", n(event.version()));
      }
      client.putItem(b -> b.tableName(journalTable).item(item));
    }
    Map<String, AttributeValue> head = new HashMap<>(Map.of(
        "pkey", s(pkey),
        "skey", s(aggregate + "-" + aid + "-" + String.format("%020d", 0)),
        "aid", s(aid),
        "seq_nr", n(snapshot.seqNr()),
        "last_seq_nr", n(events.size()),
        "version", n(events.size()),
        "payload", b(snapshot.json())));
    if (snapshot.fingerprint() != null) {
      head.put("snapshot_schema", s(snapshot.fingerprint()));
    }
    client.putItem(b -> b.tableName(snapshotTable).item(head));
  }

  /**
   * The stream {@code aid} of {@code aggregate} in the tip layout: its events but the last
   * {@code inTip} calved into batches of {@code batchSize}, the rest and the snapshot in the tip.
   */
  void tip(String table, String aggregate, String aid, List<Event> events, Snapshot snapshot, int inTip,
      int batchSize) {
    String stream = aggregate + "#" + aid;
    int calved = events.size() - inTip;
    for (int first = 0; first < calved; first += batchSize) {
      int end = Math.min(calved, first + batchSize);
      Map<String, AttributeValue> batch = Map.of(
          "p", s(stream),
          "i", n(first),
          "n", n(end),
          "e", AttributeValue.fromL(stored(events, first, end)),
          "c", AttributeValue.fromL(types(events, first, end)));
      client.putItem(b -> b.tableName(table).item(batch));
    }
    Map<String, AttributeValue> unfold = new HashMap<>(Map.of(
        "i", n(snapshot.seqNr()), "t", s(STORED_AT.toString()), "d", b(snapshot.json())));
    if (snapshot.fingerprint() != null) {
      unfold.put("s", s(snapshot.fingerprint()));
    }
    Map<String, AttributeValue> tip = Map.of(
        "p", s(stream),
        "i", n(Long.MAX_VALUE),
        "v", n(events.size()),
        "n", n(events.size()),
        "a", n(1),
        "e", AttributeValue.fromL(stored(events, calved, events.size())),
        "c", AttributeValue.fromL(types(events, calved, events.size())),
        "u", AttributeValue.fromM(unfold),
        "aid", s(aid),
        "lk", s(aggregate + "-" + shard(aid)));
    client.putItem(b -> b.tableName(table).item(tip));
  }

  private static List<AttributeValue> stored(List<Event> events, int from, int to) {
    List<AttributeValue> stored = new ArrayList<>();
    for (int k = from; k < to; k++) {
      Map<String, AttributeValue> event = new HashMap<>(Map.of(
          "t", s(STORED_AT.plusSeconds(k + 1).toString()), "d", b(events.get(k).json())));
      if (events.get(k).version() > 0) {
        event.put("v", n(events.get(k).version()));
      }
      stored.add(AttributeValue.fromM(event));
    }
    return stored;
  }

  private static List<AttributeValue> types(List<Event> events, int from, int to) {
    return events.subList(from, to).stream().map(event -> s(event.type())).toList();
  }

  /** CRC32 of the id's UTF-8 bytes modulo the shard count, as docs/schema.md defines it. */
  private static long shard(String aid) {
    CRC32 crc = new CRC32();
    crc.update(aid.getBytes(StandardCharsets.UTF_8));
    return crc.getValue() % SHARDS;
  }

  private static AttributeValue s(String value) {
    return AttributeValue.fromS(value);
  }

  private static AttributeValue n(long value) {
    return AttributeValue.fromN(Long.toString(value));
  }

  private static AttributeValue b(String json) {
    return AttributeValue.fromB(SdkBytes.fromUtf8String(json));
  }
}
