package dev.esgen.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberEvent;
import dev.esgen.testkit.member.MemberEvent.Noted;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import dev.esgen.testkit.time.MutableClock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The storage contract on the tip layout: the common one, and what only the tip has (a snapshot sharing its
 * item with the events, events past the thresholds on their own going to a batch item, index values set
 * beside events and snapshot).
 */
abstract class TipStoreContract extends EventStoreContract {

  TipStoreContract(EventStore store, MutableClock clock, RecordingListener listener) {
    super(store, clock, listener, LayoutKind.TIP);
  }

  /**
   * On the tip a snapshot shares its item with the events: one too large to fit even after the tip calved is
   * skipped and takes the older snapshot with it, so the tip esgen measures before sending is the tip
   * DynamoDB stores; loads fold the stream from its first event. Where calving the events the tip held makes
   * room, the tip calves though under its policy's thresholds, and keeps the snapshot.
   */
  @Test
  void onTheTipASnapshotTooLargeToFitIsSkippedWithTheOlderOneAndTheAppendIsStored() {
    // Thresholds of 400 KB, so that the tip keeps the notes: under smaller ones a note alone past them goes
    // to a batch item (see the next test).
    MemberRepository wideTip = MemberRepository.withDefinition(store,
        definition().withLayout(LayoutKind.TIP, new TipPolicy(409_600, 0, true)));
    MemberId calving = MemberId.random();
    wideTip.create(Member.joining(calving, "red", email(calving)));
    wideTip.append(calving, 1, new Noted("a".repeat(200_000)));
    MemberId single = MemberId.random();
    wideTip.create(Member.joining(single, "red", email(single)));
    wideTip.append(single, 1, new Noted("a".repeat(200_000)));
    assertEquals(List.of(), listener.skipped(single.value()), "event and snapshot of 200,000 bytes share the tip");

    Versioned<Member> inTransaction = wideTip.append(calving, 2, new Noted("b".repeat(250_000)));
    Versioned<Member> calvedForRoom = wideTip.append(single, 2, new Noted("b".repeat(105_000)));

    assertEquals(new Versioned<>(new Member(calving, "red", email(calving), 0, "b".repeat(250_000)), 3, 3),
        inTransaction);
    assertEquals(new Versioned<>(new Member(single, "red", email(single), 0, "b".repeat(105_000)), 3, 3),
        calvedForRoom);
    assertEquals(inTransaction, wideTip.loadVersioned(calving));
    assertEquals(calvedForRoom, wideTip.loadVersioned(single));
    assertEquals(List.of(3L), listener.skipped(calving.value()).stream().map(SkippedSnapshot::seqNr).toList());
    assertEquals(List.of(), listener.skipped(single.value()),
        "events 1 and 2 went to a batch item, and the snapshot fits beside event 3");
  }

  /**
   * On the tip, events past the policy's thresholds on their own go straight to a batch item with the
   * events the tip held: the tip keeps the snapshot alone, which fits where event and snapshot would not.
   */
  @Test
  void onTheTipEventsPastTheThresholdsOnTheirOwnGoToABatchAndTheSnapshotStays() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));

    Versioned<Member> noted = members.append(id, 1, new Noted("a".repeat(250_000)));
    Versioned<Member> awarded = members.transact(id, member -> member.award(1));

    assertEquals(new Versioned<>(new Member(id, "red", email(id), 1, "a".repeat(250_000)), 3, 3), awarded);
    assertEquals(awarded, members.loadVersioned(id));
    assertEquals(2, noted.version());
    assertEquals(List.of(), listener.skipped(id.value()), "the 250 KB snapshot fits a tip without the 250 KB note");
  }

  /**
   * On the tip a reindex sets the index values on the tip item beside its events and snapshot: one that would
   * take a tip of exactly 400 KB past the item limit is refused before anything is sent, and writes nothing.
   * The tip here keeps no snapshot and no limit on its events, so that a note's event stays on it.
   */
  @Test
  void onTheTipAReindexThatWouldTakeTheTipPastTheItemLimitIsRefusedAndWritesNothing() {
    AggregateDefinition<Member, MemberId, MemberEvent> type = Definitions.renamed(definition(), freshTypeName())
        .withLayout(LayoutKind.TIP, new TipPolicy(409_600, 0, false));
    MemberRepository before = MemberRepository.withDefinition(store, Definitions.withoutColumns(type));
    MemberRepository after = MemberRepository.withDefinition(store, type);
    String team = "team-" + UUID.randomUUID();
    MemberId probe = MemberId.random();
    before.create(Member.joining(probe, team, email(probe)));
    int atTheLimit = noteAtTheLimit(before, probe);
    MemberId full = new MemberId(probe.value().replace('-', '_'));
    before.create(Member.joining(full, team, email(full)));
    before.append(full, 1, new Noted("x".repeat(atTheLimit)));

    ItemTooLargeException e = assertThrows(ItemTooLargeException.class, () -> after.reindex(full));

    assertEquals("index values of version 2", e.item());
    assertTrue(e.sizeBytes() > LIMIT, e.getMessage());
    assertEquals(List.of(), after.listByTeam(team, PageRequest.first(10)).items(), "the slot was not written");
    assertEquals(Optional.empty(), after.findByEmail(email(full)), "the reservation was not written");
    assertEquals(2, after.loadVersioned(full).version());
    assertEquals("x".repeat(atTheLimit), after.load(full).note());
  }

  /**
   * On the tip each tip's listing key keeps the shard it was created in (docs/evolution.md): after a change
   * to fewer shards, {@code listAll} no longer reaches the streams of the shards that went, loads still find
   * them, and the streams of the shards that stay are listed there, by id, as before.
   */
  @Test
  void onTheTipAListingAfterFewerShardsReachesOnlyTheStreamsOfTheShardsThatStay() {
    AggregateDefinition<Member, MemberId, MemberEvent> four =
        Definitions.withShards(Definitions.renamed(definition(), freshTypeName()), 4);
    MemberRepository before = MemberRepository.withDefinition(store, four);
    MemberRepository after = MemberRepository.withDefinition(store, Definitions.withShards(four, 2));
    List<Member> stay = new java.util.ArrayList<>();
    List<Member> went = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      MemberId id = MemberId.random();
      Member created = before.create(Member.joining(id, "red", email(id))).state();
      (dev.esgen.runtime.internal.keys.TipKeys.shard(id.value(), 4) < 2 ? stay : went).add(created);
    }
    stay.sort(java.util.Comparator
        .comparingInt((Member m) -> dev.esgen.runtime.internal.keys.TipKeys.shard(m.id().value(), 4))
        .thenComparing(m -> m.id().value()));

    assertEquals(stay, after.listAll(PageRequest.first(100)).items());
    for (Member member : went) {
      assertEquals(Optional.of(member), after.findById(member.id()));
    }
  }
}
