package dev.esgen.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberEvent;
import dev.esgen.testkit.member.MemberEvent.EmailChanged;
import dev.esgen.testkit.member.MemberEvent.Noted;
import dev.esgen.testkit.member.MemberEvent.PointsAwarded;
import dev.esgen.testkit.member.MemberEvent.TeamChanged;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import dev.esgen.testkit.memory.InMemoryEventStore;
import dev.esgen.testkit.time.MutableClock;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.TablePrefix;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The in-memory store measures items and transactions exactly as esgen's DynamoDB layouts do: the same
 * append, refused on both, is refused with the same item named, the same size and the same action count;
 * a skipped snapshot is reported with the same size. Ids and values with multi-byte characters, metadata,
 * a command id and a unique value change all add to the sizes, so each is in some append here.
 */
@ExtendWith(DynamoDbLocalExtension.class)
class SizeAgreementTest {

  private static final RecordingListener DYNAMO_HEARD = new RecordingListener();
  private static final RecordingListener MEMORY_HEARD = new RecordingListener();
  private static EventStore dynamo;
  private static EventStore memory;

  @BeforeAll
  static void stores(DynamoDbClient client, TablePrefix tables) {
    MutableClock clock = MutableClock.at(Instant.parse("2026-05-06T07:08:09.123456Z"));
    StoreConfig config = StoreConfig.defaults()
        .withJournalTable(tables.name("journal"))
        .withSnapshotTable(tables.name("snapshot"))
        .withTipTable(tables.name("streams"))
        .withClock(clock);
    new TableProvisioner(client, config).createTablesIfMissing(MemberRepository.definition(config.objectMapper()));
    dynamo = DynamoDbEventStore.create(client, config.withListener(DYNAMO_HEARD));
    memory = InMemoryEventStore.create(config.withListener(MEMORY_HEARD));
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void anItemTooLargeIsNamedAndMeasuredAlike(LayoutKind layout) {
    MemberId id = new MemberId("sizes-\u00e9\uD83D\uDE00-" + UUID.randomUUID());
    Function<EventStore, List<String>> refusals = store -> {
      MemberRepository members = members(store, layout);
      members.create(Member.joining(id, "r\u00f6d", "x\u00e9-" + id.value() + "@example.com"));
      List<String> seen = new ArrayList<>();
      for (int length : List.of(409_700, 410_000, 500_000)) {
        seen.add(refusal(() -> members.append(id, 1,
            List.of(new PointsAwarded(1), new Noted("\u00e9".repeat(length / 2))))));
        seen.add(refusal(() -> members.append(id, 1, AppendOptions.metadata(metadata()),
            List.of(new Noted("n".repeat(length))))));
        seen.add(refusal(() -> members.append(id, 1, AppendOptions.command("command-\u00e9-" + length),
            List.of(new EmailChanged("other" + length + "@example.com"), new Noted("n".repeat(length))))));
      }
      return seen;
    };

    List<String> onDynamoDb = refusals.apply(dynamo);

    assertEquals(onDynamoDb, refusals.apply(memory));
  }

  @Test
  void aTransactionTooLargeIsCountedAlike() {
    MemberId id = new MemberId("actions-" + UUID.randomUUID());
    Function<EventStore, List<String>> refusals = store -> {
      MemberRepository members = members(store, LayoutKind.JOURNAL);
      members.create(Member.joining(id, "red", id.value() + "@example.com"));
      members.append(id, 1, List.of(new PointsAwarded(1), new PointsAwarded(1)));
      List<String> seen = new ArrayList<>();
      List<MemberEvent> heavy = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        heavy.add(new Noted("h".repeat(380_000)));
      }
      seen.add(refusal(() -> members.append(id, 2, heavy)));
      // The last one fits and is stored; the ones before are refused, so all are appended at version 2.
      for (int events : List.of(97, 120, 90)) {
        List<MemberEvent> many =
            new ArrayList<>(List.of(new EmailChanged("new-" + id.value()), new TeamChanged("blue")));
        for (int i = 0; i < events; i++) {
          many.add(new PointsAwarded(i));
        }
        seen.add(refusal(() -> members.append(id, 2, AppendOptions.command("many-" + events), many)));
      }
      return seen;
    };

    List<String> onDynamoDb = refusals.apply(dynamo);

    assertEquals(onDynamoDb, refusals.apply(memory));
    assertTrue(onDynamoDb.get(0).startsWith("transaction "), "12 events of 380 KB pass 4 MB: " + onDynamoDb);
    assertTrue(onDynamoDb.get(1).startsWith("transaction "), "97 events and more pass 100 actions: " + onDynamoDb);
    assertEquals("stored", onDynamoDb.get(3), "90 events, a unique change and a command fit in 100 actions");
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aSkippedSnapshotIsMeasuredAlike(LayoutKind layout) {
    MemberId id = new MemberId("skips-" + UUID.randomUUID());
    Function<EventStore, List<String>> skipped = store -> {
      // A tip of 400 KB keeps the 250 KB note beside the snapshot, where the two do not fit; under smaller
      // thresholds the note alone would go to a batch item and the snapshot fit the tip.
      MemberRepository members = MemberRepository.withDefinition(store, MemberRepository.definition(
          store.objectMapper()).withLayout(layout, new TipPolicy(409_600, 5, true)));
      members.create(Member.joining(id, "red", id.value() + "@example.com"));
      int note = 250_000;
      if (layout == LayoutKind.JOURNAL) {
        // The journal's head row holds the snapshot alone: only a note at the event limit outgrows it.
        ItemTooLargeException probe = assertThrows(ItemTooLargeException.class,
            () -> members.append(id, 1, new Noted("s".repeat(420_000))));
        note = 420_000 - (int) (probe.sizeBytes() - ItemTooLargeException.LIMIT_BYTES);
      }
      members.append(id, 1, new Noted("s".repeat(note)));
      members.transact(id, member -> member.award(1));
      members.transact(id, member -> member.award(1));
      RecordingListener heard = store == dynamo ? DYNAMO_HEARD : MEMORY_HEARD;
      return heard.skipped(id.value()).stream().map(s -> "seq_nr " + s.seqNr() + ": " + s.sizeBytes()).toList();
    };

    List<String> onDynamoDb = skipped.apply(dynamo);

    assertFalse(onDynamoDb.isEmpty());
    assertEquals(onDynamoDb, skipped.apply(memory));
  }

  /**
   * An {@code @Indexed} column dropped from the code leaves its slot on the stored item, which DynamoDB counts:
   * an append that fits only without it is refused alike, and one that fits with it is stored alike.
   */
  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void theSlotOfADroppedColumnIsMeasuredAlike(LayoutKind layout) {
    MemberId id = new MemberId("dropped-" + UUID.randomUUID());
    Function<EventStore, List<String>> appends = store -> {
      AggregateDefinition<Member, MemberId, MemberEvent> indexed = MemberRepository.definition(store.objectMapper())
          .withLayout(layout, new TipPolicy(409_600, 5, true));
      MemberRepository before = MemberRepository.withDefinition(store, indexed);
      MemberRepository after = MemberRepository.withDefinition(store, new AggregateDefinition<>(indexed.name(),
          indexed.aggregateType(), indexed.keys(), indexed.eventCodec(), indexed.snapshotCodec(), indexed.replay(),
          IndexColumns.none(), indexed.shards(), indexed.snapshotPolicy(), indexed.layout(), indexed.tipPolicy()));
      before.create(Member.joining(id, "t".repeat(1_900), id.value() + "@example.com"));
      List<String> seen = new ArrayList<>();
      long[] version = {1};
      for (int length : List.of(408_000, 407_000, 404_000)) {
        String outcome = refusal(() -> after.append(id, version[0], List.of(new Noted("n".repeat(length)))));
        version[0] += outcome.equals("stored") ? 1 : 0;
        seen.add(outcome);
      }
      return seen;
    };

    List<String> onDynamoDb = appends.apply(dynamo);

    assertEquals(onDynamoDb, appends.apply(memory));
    if (layout == LayoutKind.TIP) {
      // The tip holds the note: 408,000 characters fit beside the tip's keys, not beside the old slot too.
      assertTrue(onDynamoDb.get(0).startsWith("item tip") && onDynamoDb.contains("stored"), onDynamoDb.toString());
    }
  }

  /**
   * On the tip, an event past the thresholds that fits a batch item alone is stored beside a tip whose events
   * would not fit that item with it (they go into a batch each); one that fits no item is refused alike.
   */
  @Test
  void onTheTipAnEventThatFitsABatchItemAloneIsStoredAlike() {
    MemberId id = new MemberId("apart-" + UUID.randomUUID());
    Function<EventStore, List<String>> appends = store -> {
      MemberRepository members = members(store, LayoutKind.TIP);
      members.create(Member.joining(id, "t".repeat(1_900), id.value() + "@example.com"));
      List<String> seen = new ArrayList<>();
      seen.add(refusal(() -> members.append(id, 1, List.of(new Noted("n".repeat(409_600))))));
      seen.add(refusal(() -> members.append(id, 1, List.of(new Noted("n".repeat(408_000))))));
      seen.add("version " + members.loadVersioned(id).version());
      return seen;
    };

    List<String> onDynamoDb = appends.apply(dynamo);

    assertEquals(onDynamoDb, appends.apply(memory));
    assertEquals(List.of("stored", "version 2"), onDynamoDb.subList(1, 3), onDynamoDb.toString());
    assertTrue(onDynamoDb.get(0).startsWith("item "), onDynamoDb.toString());
  }

  private static MemberRepository members(EventStore store, LayoutKind layout) {
    AggregateDefinition<Member, MemberId, MemberEvent> definition = MemberRepository.definition(store.objectMapper())
        .withLayout(layout, new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 5, true));
    return MemberRepository.withDefinition(store, definition);
  }

  private static EventMetadata metadata() {
    return EventMetadata.none().withCorrelationId("corr-\u00e9").withActor("tester").with("k\u00e9y", "v\uD83D\uDE00");
  }

  /** What an append came to: the limit it broke, with the item, size and action count esgen reported. */
  private static String refusal(Runnable append) {
    try {
      append.run();
      return "stored";
    } catch (ItemTooLargeException e) {
      return "item " + e.item() + " " + e.sizeBytes();
    } catch (TransactionTooLargeException e) {
      return "transaction " + e.actionCount() + " " + e.sizeBytes();
    }
  }
}
