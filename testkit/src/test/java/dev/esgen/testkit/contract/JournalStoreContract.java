package dev.esgen.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberEvent;
import dev.esgen.testkit.member.MemberEvent.Noted;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import dev.esgen.testkit.time.MutableClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The storage contract on the journal layout: the common one, and what only its head row and its
 * appends have (the list of kept snapshots the head row holds, index values written onto it, a due snapshot
 * counted toward the transaction's 4 MB).
 */
abstract class JournalStoreContract extends EventStoreContract {

  JournalStoreContract(EventStore store, MutableClock clock, RecordingListener listener) {
    super(store, clock, listener, LayoutKind.JOURNAL);
  }

  /**
   * On the journal the head row also holds the list of kept snapshots, and a snapshot is measured with it: a
   * head row of exactly 400 KB is stored, one byte more and the snapshot is skipped, the append stored.
   */
  @Test
  void onTheJournalASnapshotIsMeasuredWithTheListOfKeptSnapshots() {
    MemberId probe = MemberId.random();
    members.create(Member.joining(probe, "red", email(probe)));
    int large = noteAtTheLimit(members, probe);
    noteAndAwardTwice(probe, large);
    SkippedSnapshot measured = listener.skipped(probe.value()).get(0);
    int atTheLimit = large - (int) (measured.sizeBytes() - LIMIT);
    MemberId fits = new MemberId(probe.value().replace('-', '_'));
    MemberId over = new MemberId(probe.value().replace('-', '.'));

    Versioned<Member> fitting = noteAndAwardTwice(fits, atTheLimit);
    Versioned<Member> skipping = noteAndAwardTwice(over, atTheLimit + 1);

    assertEquals(List.of(), listener.skipped(fits.value()), "a head row of exactly 409,600 bytes is stored");
    assertEquals(List.of(new SkippedSnapshot("member", over.value(), 4, LIMIT + 1, LIMIT)),
        listener.skipped(over.value()));
    assertEquals(new Versioned<>(new Member(fits, "red", email(fits), 2, "x".repeat(atTheLimit)), 4, 4), fitting);
    assertEquals(fitting, members.loadVersioned(fits));
    assertEquals(skipping, members.loadVersioned(over));
  }

  /**
   * A reindex writes the index values onto the head row: one that would take a head row of exactly 400 KB
   * past the item limit is refused before anything is sent (DynamoDB would refuse the update), and writes
   * nothing.
   */
  @Test
  void aReindexThatWouldTakeTheHeadRowPastTheItemLimitIsRefusedAndWritesNothing() {
    AggregateDefinition<Member, MemberId, MemberEvent> type = Definitions.renamed(definition(), freshTypeName());
    MemberRepository before = MemberRepository.withDefinition(store, Definitions.withoutColumns(type));
    MemberRepository after = MemberRepository.withDefinition(store, type);
    String team = "team-" + UUID.randomUUID();
    MemberId probe = MemberId.random();
    before.create(Member.joining(probe, team, email(probe)));
    int large = noteAtTheLimit(before, probe);
    noteAndAwardTwice(before, probe, team, large);
    int atTheLimit = large - (int) (listener.skipped(probe.value()).get(0).sizeBytes() - LIMIT);
    MemberId full = new MemberId(probe.value().replace('-', '_'));
    noteAndAwardTwice(before, full, team, atTheLimit);
    assertEquals(List.of(), listener.skipped(full.value()), "a head row of exactly 409,600 bytes is stored");

    ItemTooLargeException e = assertThrows(ItemTooLargeException.class, () -> after.reindex(full));

    assertEquals("index values of version 4", e.item());
    assertTrue(e.sizeBytes() > LIMIT, e.getMessage());

    assertEquals(List.of(), after.listByTeam(team, PageRequest.first(10)).items(), "the slot was not written");
    assertEquals(Optional.empty(), after.findByEmail(email(full)), "the reservation was not written");
    assertEquals(4, after.loadVersioned(full).version());
  }

  /**
   * A head row that holds no snapshot (the one due at creation did not fit) is given one by the next append
   * it fits, not only when the snapshot interval comes round: every append until then tries again and is
   * heard skipping it.
   */
  @Test
  void aHeadRowWithoutASnapshotGetsOneAtTheNextAppendItFits() {
    AggregateDefinition<Member, MemberId, MemberEvent> generated = definition();
    MemberRepository rarely = MemberRepository.withDefinition(store, new AggregateDefinition<>(generated.name(),
        generated.aggregateType(), generated.keys(), generated.eventCodec(), generated.snapshotCodec(),
        generated.replay(), generated.indexColumns(), generated.shards(),
        dev.esgen.runtime.aggregate.SnapshotPolicy.every(100), generated.layout(), generated.tipPolicy()));
    MemberId probe = MemberId.random();
    rarely.create(Member.joining(probe, "red", email(probe)));
    int large = noteAtTheLimit(rarely, probe);
    MemberId id = MemberId.random();
    rarely.create(List.of(Member.joining(id, "red", email(id)), new Noted("x".repeat(large))));
    assertEquals(List.of(2L), skippedSeqNrs(id), "the creating snapshot, holding the note, does not fit");

    rarely.transact(id, member -> member.award(1));
    Versioned<Member> small = rarely.transact(id, member -> member.note("small"));
    rarely.transact(id, member -> member.award(1));

    assertEquals(List.of(2L, 3L), skippedSeqNrs(id), "tried again at 3 and skipped; it fits from 4");
    assertEquals(new Versioned<>(new Member(id, "red", email(id), 2, "small"), 4, 5), rarely.loadVersioned(id));
    assertEquals(4, small.seqNr());
  }

  private List<Long> skippedSeqNrs(MemberId id) {
    return listener.skipped(id.value()).stream().map(SkippedSnapshot::seqNr).toList();
  }

  /**
   * DynamoDB counts what an update writes toward the 4 MB of a transaction: on the journal a due snapshot
   * written to the head row counts as much as the events. Ten events of 370,000 bytes with the snapshot that
   * falls due among them need more than 4 MB; an append the same size without a snapshot to write fits.
   */
  @Test
  void theSnapshotAnAppendWritesCountsTowardTheTransactionsFourMegabytes() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    List<MemberEvent> tenLarge = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      tenLarge.add(new Noted("n".repeat(370_000)));
    }

    TransactionTooLargeException e = assertThrows(TransactionTooLargeException.class,
        () -> members.append(id, 1, tenLarge));

    assertTrue(e.sizeBytes() > TransactionTooLargeException.BYTE_LIMIT, e.getMessage());
    assertEquals(1, members.loadVersioned(id).version());
    AggregateDefinition<Member, MemberId, MemberEvent> generated = definition();
    MemberRepository rarely = MemberRepository.withDefinition(store, new AggregateDefinition<>(generated.name(),
        generated.aggregateType(), generated.keys(), generated.eventCodec(), generated.snapshotCodec(),
        generated.replay(), generated.indexColumns(), generated.shards(),
        dev.esgen.runtime.aggregate.SnapshotPolicy.every(1000), generated.layout(), generated.tipPolicy()));
    assertEquals(2, rarely.append(id, 1, tenLarge).version(), "without a snapshot to write the append fits");
  }

  /**
   * On the journal the shard count is part of every key (docs/evolution.md): after a change of
   * {@code shards} a stream the new count puts in another partition is not found, a create with its id
   * starts a second stream beside the stored one, and {@code listAll}, which still meets the stored head row
   * in its old partition, fails naming both partitions. A stream the new count leaves where it was is found.
   */
  @Test
  void onTheJournalAStreamAnotherShardCountPutsElsewhereIsNotFoundAndItsHeadRowFailsTheListing() {
    AggregateDefinition<Member, MemberId, MemberEvent> one =
        Definitions.withShards(Definitions.renamed(definition(), freshTypeName()), 1);
    MemberRepository before = MemberRepository.withDefinition(store, one);
    MemberRepository after = MemberRepository.withDefinition(store, Definitions.withShards(one, 4));
    MemberId moved = idInShard(4, shard -> shard != 0);
    MemberId stays = idInShard(4, shard -> shard == 0);
    before.create(Member.joining(moved, "red", email(moved)));
    Versioned<Member> kept = before.create(Member.joining(stays, "red", email(stays)));

    assertEquals(Optional.empty(), after.findById(moved));
    assertEquals(Optional.of(kept.state()), after.findById(stays));
    CorruptStreamException listing = assertThrows(CorruptStreamException.class, () -> after.listAll(PageRequest.first(10)));
    assertEquals(moved.value(), listing.aggregateId());
    assertTrue(listing.getMessage().contains("partition " + one.name() + "-0, but with shards = 4"), listing.getMessage());

    Versioned<Member> second = after.create(Member.joining(moved, "blue", "second-" + email(moved)));
    assertEquals(new Versioned<>(new Member(moved, "blue", "second-" + email(moved), 0, ""), 1, 1), second);
    assertEquals("red", before.load(moved).team());
    assertEquals("blue", after.load(moved).team());
  }

  private static MemberId idInShard(int shards, java.util.function.IntPredicate wanted) {
    while (true) {
      MemberId id = MemberId.random();
      if (wanted.test(dev.esgen.runtime.internal.keys.TipKeys.shard(id.value(), shards))) {
        return id;
      }
    }
  }
}
