package dev.esgen.processor.functional.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.processor.functional.ledger.StoredStreams.Event;
import dev.esgen.processor.functional.ledger.StoredStreams.Snapshot;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.journal.JournalEvents;
import dev.esgen.runtime.internal.tip.TipEvents;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.test.DynamoDbLocal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Each row of docs/evolution.md, tried on streams that earlier code stored: the items are written raw
 * ({@link StoredStreams}), as that code wrote them, then read and extended by the ledger as it is now, on
 * both layouts. Unless a test says otherwise, a stream carries the snapshot esgen wrote at its creation
 * before snapshots had fingerprints, so the current code ignores it and folds every stored event.
 */
class LedgerEvolutionTest {

  private static final ObjectMapper MAPPER = EsgenJson.newObjectMapper();
  private static final StoreConfig CONFIG = StoreConfig.defaults()
      .withJournalTable("ledger-journal").withSnapshotTable("ledger-snapshot").withTipTable("ledger-streams");
  private static final DynamoDbClient CLIENT = client();
  private static final StoredStreams STORED = new StoredStreams(CLIENT);

  private final DynamoDbEventStore store = DynamoDbEventStore.create(CLIENT, CONFIG);

  /** Where a stream is stored; the tip keeps two events and calves the rest into batches of two. */
  enum Layout {
    JOURNAL, TIP;

    AggregateDefinition<Ledger, AccountNumber, LedgerEvent> definition() {
      AggregateDefinition<Ledger, AccountNumber, LedgerEvent> journal = LedgerRepository.definition(MAPPER);
      return this == JOURNAL ? journal : journal.withLayout(LayoutKind.TIP, new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 2, true));
    }
  }

  private static DynamoDbClient client() {
    DynamoDbClient client = DynamoDbClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
    new TableProvisioner(client, CONFIG).createTablesIfMissing(Layout.JOURNAL.definition(), Layout.TIP.definition());
    return client;
  }

  private LedgerRepository ledgers(Layout layout) {
    return LedgerRepository.withDefinition(store, layout.definition());
  }

  private static String newAid() {
    return "L-" + UUID.randomUUID();
  }

  /** The opening as version 1 stored it, under the type's first name. */
  private static Event opened(String aid) {
    return Event.of("ledger-created", "{\"id\":\"" + aid + "\",\"name\":\"Ann\"}");
  }

  /** The snapshot esgen stored at creation before fingerprints existed, of the record as it was then. */
  private static Snapshot creationSnapshot(String aid) {
    return new Snapshot(1, "{\"id\":\"" + aid + "\",\"name\":\"Ann\",\"balance\":0}", null);
  }

  private static AccountNumber store(Layout layout, String aid, List<Event> events) {
    return store(layout, aid, events, creationSnapshot(aid));
  }

  private static AccountNumber store(Layout layout, String aid, List<Event> events, Snapshot snapshot) {
    return store(layout, "ledger", aid, events, snapshot);
  }

  private static AccountNumber store(Layout layout, String aggregate, String aid, List<Event> events, Snapshot snapshot) {
    if (layout == Layout.JOURNAL) {
      STORED.journal(CONFIG.journalTable(), CONFIG.snapshotTable(), aggregate, aid, events, snapshot);
    } else {
      STORED.tip(CONFIG.tipTable(), aggregate, aid, events, snapshot, Math.min(2, events.size()), 2);
    }
    return new AccountNumber(aid);
  }

  private static List<String> history(LedgerRepository ledgers, AccountNumber id) {
    try (Stream<RecordedEvent<LedgerEvent>> events = ledgers.events(id)) {
      return events.map(e -> e.seqNr() + " " + e.eventType() + " " + e.event()).toList();
    }
  }

  // ---- safe as they are

  @ParameterizedTest
  @EnumSource(Layout.class)
  void anOptionalComponentAddedLaterIsNullInOldEvents(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid),
        Event.of("money-withdrawn", "{\"cents\":100}"), Event.of("money-withdrawn", "{\"cents\":50}")));
    LedgerRepository ledgers = ledgers(layout);
    assertEquals(-150, ledgers.load(id).balanceCents());
    assertEquals(List.of("2 money-withdrawn Withdrawn[cents=100, reference=null]",
        "3 money-withdrawn Withdrawn[cents=50, reference=null]"), history(ledgers, id).subList(1, 3));
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aComponentRemovedLaterIsIgnoredInOldEvents(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid),
        Event.of("fee-charged", "{\"cents\":20,\"reason\":\"card\"}")));
    Ledger ledger = ledgers(layout).load(id);
    assertEquals(20, ledger.feesCents());
    assertEquals(-20, ledger.balanceCents());
  }

  // ---- a new version and an upcaster

  @ParameterizedTest
  @EnumSource(Layout.class)
  void everyStoredVersionIsUpcastStepByStepToTheCurrentOne(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(
        Event.of("ledger-opened", "{\"id\":\"" + aid + "\",\"name\":\"Ann\"}"),
        Event.of("money-deposited", "{\"amount\":5}"),
        new Event("money-deposited", 2, "{\"euros\":3}"),
        new Event("money-deposited", 3, "{\"cents\":250}")));
    Ledger ledger = ledgers(layout).load(id);
    assertEquals(new Ledger(id, "Ann", "EUR", 500 + 300 + 250, 0, false), ledger);
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void newEventsAreWrittenUnderTheCurrentNameAtTheCurrentVersion(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid)));
    LedgerRepository ledgers = ledgers(layout);
    ledgers.append(id, 1, List.of(new Deposited(700), new Closed()));
    List<Map<String, AttributeValue>> stored = storedEvents(layout, aid);
    String type = layout == Layout.JOURNAL ? "event_type" : null;
    String version = layout == Layout.JOURNAL ? "event_version" : "v";
    assertEquals(3, stored.size());
    assertEquals(AttributeValue.fromN("3"), stored.get(1).get(version), "deposits are at version 3");
    assertFalse(stored.get(2).containsKey(version), "a version-1 event stores none");
    if (type != null) {
      assertEquals("money-deposited", stored.get(1).get(type).s());
      assertEquals("ledger-closed", stored.get(2).get(type).s(), "not the alias");
    }
    assertEquals(new Ledger(id, "Ann", "EUR", 700, 0, true), ledgers.load(id));
  }

  // ---- renames, splits, removals

  @ParameterizedTest
  @EnumSource(Layout.class)
  void eventsStoredUnderAnEarlierNameAreReadUnderTheirAlias(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid), Event.of("ledger-terminated", "{}")));
    LedgerRepository ledgers = ledgers(layout);
    assertTrue(ledgers.load(id).closed());
    assertEquals(List.of("1 ledger-opened Opened[id=AccountNumber[value=" + aid + "], owner=Ann, currency=EUR]",
        "2 ledger-closed Closed[]"), history(ledgers, id), "the history names them as the code does now");
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aRetiredTypeThatWasSplitGivesSeveralEventsWithItsSeqNr(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid),
        Event.of("cash-in", "{\"cents\":1000}"),
        Event.of("transfer-booked", "{\"cents\":300,\"fee\":20,\"to\":\"DE02\"}"),
        Event.of("money-withdrawn", "{\"cents\":5,\"reference\":\"atm\"}")));
    LedgerRepository ledgers = ledgers(layout);
    assertEquals(new Ledger(id, "Ann", "EUR", 1000 - 300 - 20 - 5, 20, false), ledgers.load(id));
    assertEquals(List.of(
            "2 money-deposited Deposited[cents=1000]",
            "3 money-withdrawn Withdrawn[cents=300, reference=DE02]",
            "3 fee-charged FeeCharged[cents=20]",
            "4 money-withdrawn Withdrawn[cents=5, reference=atm]"),
        history(ledgers, id).subList(1, 5));
    Versioned<Ledger> next = ledgers.append(id, 4, new Deposited(1));
    assertEquals(5, next.seqNr(), "seq_nrs count stored events, however many each stands for");
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aRemovedTypeWhoseUpcasterReturnsNothingIsDropped(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid),
        Event.of("statement-sent", "{\"month\":\"2024-02\"}"),
        Event.of("money-deposited", "{\"amount\":1}")));
    LedgerRepository ledgers = ledgers(layout);
    assertEquals(100, ledgers.load(id).balanceCents());
    assertEquals(List.of("1 ledger-opened", "3 money-deposited"),
        history(ledgers, id).stream().map(line -> line.substring(0, line.indexOf(' ', 2))).toList());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aRemovedTypeWithoutUpcasterFailsNamingItsTypeAndSeqNr(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid), Event.of("interest-paid", "{\"cents\":3}")));
    EventDecodingException e = assertThrows(EventDecodingException.class, () -> ledgers(layout).load(id));
    assertEquals(2, e.seqNr());
    assertEquals("interest-paid", e.eventType());
    assertTrue(e.getMessage().startsWith("cannot decode event 2 (type 'interest-paid') of ledger " + aid + ": "),
        e.getMessage());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aVersionNewerThanTheCodeFailsNamingIt(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid), new Event("money-deposited", 4, "{\"cents\":1}")));
    EventDecodingException e = assertThrows(EventDecodingException.class, () -> ledgers(layout).load(id));
    assertEquals(4, e.eventVersion());
    assertTrue(e.getMessage().startsWith("cannot decode event 2 (type 'money-deposited', version 4) of ledger "),
        e.getMessage());
  }

  // ---- the aggregate record and its handlers: snapshots

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aSnapshotStoredWithoutFingerprintIsRebuiltFromTheEventsAndReplacedByTheNextAppend(Layout layout) {
    String aid = newAid();
    List<Event> events = List.of(opened(aid), Event.of("money-deposited", "{\"amount\":1}"),
        Event.of("money-deposited", "{\"amount\":2}"), Event.of("money-deposited", "{\"amount\":3}"),
        Event.of("money-deposited", "{\"amount\":4}"));
    // the state as the old code kept it, in the new record's shape but with a balance no event gives
    Snapshot old = new Snapshot(5, "{\"id\":\"" + aid + "\",\"owner\":\"Ann\",\"currency\":\"EUR\","
        + "\"balanceCents\":999999,\"feesCents\":0,\"closed\":false}", null);
    AccountNumber id = store(layout, aid, events, old);
    LedgerRepository ledgers = ledgers(layout);
    assertEquals(1000, ledgers.load(id).balanceCents(), "folded from event 1, the tip's batches included");

    ledgers.append(id, 5, new Deposited(1));
    assertEquals(LedgerRepository.SnapshotCodec.FINGERPRINT, storedFingerprint(layout, aid));
    assertEquals(6, storedSnapshotSeqNr(layout, aid), "the journal too, long before its snapshot interval");
    assertEquals(1001, ledgers.load(id).balanceCents());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aSnapshotOfOtherCodeIsNeverDecoded(Layout layout) {
    String aid = newAid();
    Snapshot unreadable = new Snapshot(2, "{\"id\":{\"number\":7},\"balanceCents\":\"lots\"}", "0ldF1ngerpr");
    AccountNumber id = store(layout, aid, List.of(opened(aid), Event.of("money-deposited", "{\"amount\":2}")), unreadable);
    assertEquals(new Ledger(id, "Ann", "EUR", 200, 0, false), ledgers(layout).load(id));
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aSnapshotWithTheCurrentFingerprintIsUsed(Layout layout) {
    String aid = newAid();
    Snapshot current = new Snapshot(2, "{\"id\":\"" + aid + "\",\"owner\":\"Ann\",\"currency\":\"EUR\","
        + "\"balanceCents\":4242,\"feesCents\":0,\"closed\":false}", LedgerRepository.SnapshotCodec.FINGERPRINT);
    AccountNumber id = store(layout, aid, List.of(opened(aid), Event.of("money-deposited", "{\"amount\":2}")), current);
    assertEquals(4242, ledgers(layout).load(id).balanceCents(), "what the snapshot says, not what the events give");
  }

  // ---- the id type and the aggregate name

  @ParameterizedTest
  @EnumSource(Layout.class)
  void aNewIdTypeWithTheSameStringFormFindsTheStreamsStoredUnderTheOld(Layout layout) {
    String aid = newAid();
    AccountNumber id = store(layout, aid, List.of(opened(aid)));
    LedgerRepository ledgers = ledgers(layout);
    assertEquals(id, ledgers.findById(new AccountNumber(aid)).orElseThrow().id());
    assertEquals(List.of(id), ledgers.findAll(List.of(id)).values().stream().map(Ledger::id).toList());
  }

  @ParameterizedTest
  @EnumSource(Layout.class)
  void streamsStoredUnderAnEarlierAggregateNameAreNotFound(Layout layout) {
    String aid = newAid();
    store(layout, "ledger-book", aid, List.of(opened(aid)), creationSnapshot(aid));
    assertTrue(ledgers(layout).findById(new AccountNumber(aid)).isEmpty());
  }

  // ---- the change feed's entry point

  @Test
  void aJournalItemDecodesThroughTheUpcastersForTheFeed() {
    String aid = newAid();
    store(Layout.JOURNAL, aid, List.of(opened(aid), Event.of("transfer-booked", "{\"cents\":300,\"fee\":20,\"to\":\"X\"}")));
    Map<String, AttributeValue> item = CLIENT.query(b -> b.tableName(CONFIG.journalTable())
        .keyConditionExpression("pkey = :p AND skey = :s")
        .expressionAttributeValues(Map.of(
            ":p", AttributeValue.fromS("ledger-" + Long.toString(shard(aid))),
            ":s", AttributeValue.fromS("ledger-" + aid + "-" + String.format("%020d", 2)))))
        .items().get(0);
    List<RecordedEvent<LedgerEvent>> events = JournalEvents.recorded(Layout.JOURNAL.definition(), item);
    assertEquals(List.of(new Withdrawn(300, "X"), new FeeCharged(20)), events.stream().map(RecordedEvent::event).toList());
    assertEquals(List.of(2L, 2L), events.stream().map(RecordedEvent::seqNr).toList());
  }

  @Test
  void aTipsEventsDecodeThroughTheUpcastersForTheFeed() {
    String aid = newAid();
    store(Layout.TIP, aid, List.of(opened(aid), Event.of("money-deposited", "{\"amount\":2}"),
        Event.of("ledger-terminated", "{}")));
    Map<String, AttributeValue> tip = tipItems(aid).get(tipItems(aid).size() - 1);
    List<RecordedEvent<LedgerEvent>> events = TipEvents.recorded(Layout.TIP.definition(), aid, 1,
        tip.get("e").l(), tip.get("c").l(), 2, 3);
    assertEquals(List.of("2 money-deposited", "3 ledger-closed"),
        events.stream().map(e -> e.seqNr() + " " + e.eventType()).toList());
    assertEquals(new Deposited(200), events.get(0).event());
  }

  // ---- reading what is stored

  private static long shard(String aid) {
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(aid.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return crc.getValue() % 4;
  }

  private static List<Map<String, AttributeValue>> tipItems(String aid) {
    return CLIENT.query(b -> b.tableName(CONFIG.tipTable()).keyConditionExpression("p = :p")
        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("ledger#" + aid))).consistentRead(true)).items();
  }

  private static Map<String, AttributeValue> headRow(String aid) {
    return CLIENT.getItem(b -> b.tableName(CONFIG.snapshotTable()).consistentRead(true).key(Map.of(
        "pkey", AttributeValue.fromS("ledger-" + shard(aid)),
        "skey", AttributeValue.fromS("ledger-" + aid + "-" + String.format("%020d", 0))))).item();
  }

  /** The stream's events as stored: journal items, or the maps in the tip's and batches' lists. */
  private static List<Map<String, AttributeValue>> storedEvents(Layout layout, String aid) {
    if (layout == Layout.JOURNAL) {
      return CLIENT.query(b -> b.tableName(CONFIG.journalTable()).consistentRead(true)
          .keyConditionExpression("pkey = :p AND begins_with(skey, :s)")
          .expressionAttributeValues(Map.of(
              ":p", AttributeValue.fromS("ledger-" + shard(aid)), ":s", AttributeValue.fromS("ledger-" + aid + "-"))))
          .items();
    }
    List<Map<String, AttributeValue>> events = new ArrayList<>();
    tipItems(aid).forEach(item -> item.get("e").l().forEach(event -> events.add(event.m())));
    return events;
  }

  private static String storedFingerprint(Layout layout, String aid) {
    AttributeValue stored = layout == Layout.JOURNAL
        ? headRow(aid).get("snapshot_schema")
        : tipItems(aid).get(tipItems(aid).size() - 1).get("u").m().get("s");
    return stored == null ? null : stored.s();
  }

  private static long storedSnapshotSeqNr(Layout layout, String aid) {
    return Long.parseLong(layout == Layout.JOURNAL
        ? headRow(aid).get("seq_nr").n()
        : tipItems(aid).get(tipItems(aid).size() - 1).get("u").m().get("i").n());
  }
}
