package dev.esgen.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AggregateNotFoundException;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.error.EventEncodingException;
import dev.esgen.runtime.error.InvalidCursorException;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.SnapshotDecodingException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.history.EventContext;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.repository.ReindexReport;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberEvent;
import dev.esgen.testkit.member.MemberEvent.Joined;
import dev.esgen.testkit.member.MemberEvent.Noted;
import dev.esgen.testkit.member.MemberEvent.PointsAwarded;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import dev.esgen.testkit.time.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The storage contract every esgen store keeps, written once against the generated repository of the test
 * kit's {@link Member} and run against each store and layout by a subclass: the in-memory store and
 * DynamoDB Local, each on the journal and on the tip layout. A difference between them fails here, or is
 * written down in {@code docs/testing.md} as a limit of the in-memory store.
 *
 * <p>A subclass ({@link JournalStoreContract} or {@link TipStoreContract}, which add what only their layout
 * has) registers esgen's JUnit extension with its backend and this class's listener, and passes the store
 * and clock it resolves. The tests of a class share its store, so each one uses fresh ids,
 * e-mail addresses and teams, and an aggregate type of its own where it lists every stream of a type.
 */
abstract class EventStoreContract {

  static final long LIMIT = ItemTooLargeException.LIMIT_BYTES;

  final EventStore store;
  private final MutableClock clock;
  final RecordingListener listener;
  private final LayoutKind layout;
  final MemberRepository members;

  EventStoreContract(EventStore store, MutableClock clock, RecordingListener listener, LayoutKind layout) {
    this.store = store;
    this.clock = clock;
    this.listener = listener;
    this.layout = layout;
    this.members = MemberRepository.withDefinition(store, definition());
  }

  // ---------------------------------------------------------------------------------------- versions

  @Test
  void createAppendAndLoadFoldEveryEvent() {
    MemberId id = MemberId.random();
    String email = email(id);

    Versioned<Member> created = members.create(Member.joining(id, "red", email));
    Versioned<Member> awarded = members.append(id, 1, List.of(new PointsAwarded(5), new PointsAwarded(7)));

    assertEquals(new Versioned<>(new Member(id, "red", email, 0, ""), 1, 1), created);
    assertEquals(new Versioned<>(new Member(id, "red", email, 12, ""), 2, 3), awarded);
    assertEquals(awarded, members.loadVersioned(id));
    assertEquals(Optional.of(awarded.state()), members.findById(id));
    assertEquals(Optional.empty(), members.findById(MemberId.random()));
    assertThrows(AggregateNotFoundException.class, () -> members.load(MemberId.random()));
  }

  @Test
  void aStreamPastSeveralSnapshotsAndBatchesLoadsAsTheFoldOfEveryEvent() {
    MemberId id = MemberId.random();
    Versioned<Member> current = members.create(Member.joining(id, "red", email(id)));
    for (int i = 1; i <= 20; i++) {
      int points = i;
      current = i % 2 == 0
          ? members.append(current, List.of(new PointsAwarded(points)))
          : members.transact(id, member -> member.award(points));
    }

    assertEquals(new Versioned<>(new Member(id, "red", email(id), 210, ""), 21, 21), members.loadVersioned(id));
    assertEquals(current, members.loadVersioned(id));
  }

  @Test
  void aSecondCreateOfAnIdFailsAndStoresNothing() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    String other = "other-" + email(id);

    AggregateAlreadyExistsException e = assertThrows(AggregateAlreadyExistsException.class,
        () -> members.create(Member.joining(id, "blue", other)));

    assertEquals(0, e.expectedVersion());
    assertEquals(OptionalLong.of(1), e.actualVersion());
    assertEquals(new Versioned<>(new Member(id, "red", email(id), 0, ""), 1, 1), members.loadVersioned(id));
    assertEquals(Optional.empty(), members.findByEmail(other), "the failed create reserved nothing");
  }

  @Test
  void anAppendAtAStaleVersionFailsNamingBothVersionsAndStoresNothing() {
    MemberId id = MemberId.random();
    Versioned<Member> created = members.create(Member.joining(id, "red", email(id)));
    members.append(created, List.of(new PointsAwarded(1)));

    VersionConflictException byNumber = assertThrows(VersionConflictException.class,
        () -> members.append(id, 1, new PointsAwarded(10)));
    VersionConflictException byLoaded = assertThrows(VersionConflictException.class,
        () -> members.append(created, List.of(new PointsAwarded(100))));

    assertEquals(1, byNumber.expectedVersion());
    assertEquals(OptionalLong.of(2), byNumber.actualVersion());
    assertEquals(1, byLoaded.expectedVersion());
    assertEquals(OptionalLong.of(2), byLoaded.actualVersion());
    assertEquals(new Versioned<>(new Member(id, "red", email(id), 1, ""), 2, 2), members.loadVersioned(id));
  }

  @Test
  void anAppendToAMissingStreamIsNotFound() {
    AggregateNotFoundException e = assertThrows(AggregateNotFoundException.class,
        () -> members.append(new MemberId("missing-" + UUID.randomUUID()), 1, new PointsAwarded(1)));
    assertEquals("member", e.aggregateName());
  }

  @Test
  void ofWritersAppendingToTheSameVersionExactlyOneWins() throws Exception {
    MemberId id = MemberId.random();
    Versioned<Member> created = members.create(Member.joining(id, "red", email(id)));
    int writers = 4;
    CountDownLatch start = new CountDownLatch(1);
    List<Callable<String>> tries = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      String note = "writer " + i;
      tries.add(() -> {
        start.await();
        try {
          members.append(created, List.of(new Noted(note)));
          return note;
        } catch (VersionConflictException lost) {
          return "lost";
        }
      });
    }

    List<String> outcomes = runTogether(tries, start);

    List<String> winners = outcomes.stream().filter(outcome -> !outcome.equals("lost")).toList();
    assertEquals(1, winners.size(), outcomes.toString());
    assertEquals(new Versioned<>(new Member(id, "red", email(id), 0, winners.get(0)), 2, 2),
        members.loadVersioned(id));
  }

  @Test
  void transactFromSeveralThreadsAppliesEveryCommandExactlyOnce() throws Exception {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    CountDownLatch start = new CountDownLatch(1);
    List<Callable<String>> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(() -> {
        start.await();
        for (int i = 0; i < 8; i++) {
          members.transact(id, member -> member.award(1));
        }
        return "done";
      });
    }

    runTogether(threads, start);

    Versioned<Member> loaded = members.loadVersioned(id);
    assertEquals(32, loaded.state().points());
    assertEquals(33, loaded.version());
  }

  @Test
  void transactDecidesAgainOnTheNewStateAfterAConflict() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    AtomicInteger decisions = new AtomicInteger();

    Versioned<Member> done = members.transact(id, member -> {
      if (decisions.getAndIncrement() == 0) {
        members.append(id, 1, new Noted("sneaked in"));
      }
      return member.award(member.note().isEmpty() ? 1 : 2);
    });

    assertEquals(2, decisions.get());
    assertEquals(new Versioned<>(new Member(id, "red", email(id), 2, "sneaked in"), 3, 3), done);
  }

  @Test
  void aCommandThatDecidesNothingWritesNothing() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));

    Versioned<Member> unchanged = members.transact(id, member -> member.moveTo("red"));

    assertEquals(1, unchanged.version());
    assertEquals(1, members.loadVersioned(id).version());
  }

  // ---------------------------------------------------------------------------------------- commands

  @Test
  void aRepeatedCommandIsStoredOnceAndNotDecidedAgain() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    members.transact(id, "award-" + id.value(), member -> member.award(5));
    AtomicBoolean decidedAgain = new AtomicBoolean();

    Versioned<Member> repeated = members.transact(id, "award-" + id.value(), member -> {
      decidedAgain.set(true);
      return member.award(5);
    });
    Versioned<Member> appendedAgain = members.append(id, 1, "award-" + id.value(), List.of(new PointsAwarded(5)));

    assertFalse(decidedAgain.get());
    assertEquals(new Versioned<>(new Member(id, "red", email(id), 5, ""), 2, 2), repeated);
    assertEquals(repeated, appendedAgain, "a repeat returns the stream as stored, whatever version it expected");
    MemberId other = MemberId.random();
    members.create(Member.joining(other, "red", email(other)));
    assertEquals(5, members.transact(other, "award-" + id.value(), member -> member.award(5)).state().points(),
        "a command id belongs to one stream");
  }

  @Test
  void aRepeatedCreateReturnsTheStreamAndAnotherCommandFindsTheIdTaken() {
    MemberId id = MemberId.random();
    Joined joined = Member.joining(id, "red", email(id));

    Versioned<Member> first = members.create("join-" + id.value(), List.of(joined));
    Versioned<Member> again = members.create("join-" + id.value(), List.of(joined));

    assertEquals(first, again);
    assertThrows(AggregateAlreadyExistsException.class, () -> members.create("other-" + id.value(), List.of(joined)));
  }

  @Test
  void concurrentTriesOfOneCommandStoreItOnce() throws Exception {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    CountDownLatch start = new CountDownLatch(1);
    List<Callable<String>> tries = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      tries.add(() -> {
        start.await();
        return members.transact(id, "once-" + id.value(), member -> member.award(1)).toString();
      });
    }

    List<String> results = runTogether(tries, start);

    Versioned<Member> stored = members.loadVersioned(id);
    assertEquals(new Versioned<>(new Member(id, "red", email(id), 1, ""), 2, 2), stored);
    assertTrue(results.stream().allMatch(result -> result.equals(stored.toString())), results.toString());
  }

  // ---------------------------------------------------------------------------------------- unique values

  @Test
  void uniqueValuesAreFoundIgnoringCaseRefusedToOthersAndFreedByAChange() {
    MemberId ann = MemberId.random();
    MemberId bob = MemberId.random();
    String annEmail = email(ann);
    members.create(Member.joining(ann, "red", annEmail));
    members.create(Member.joining(bob, "red", email(bob)));
    MemberId copycat = MemberId.random();

    DuplicateValueException onCreate = assertThrows(DuplicateValueException.class,
        () -> members.create(Member.joining(copycat, "red", annEmail.toUpperCase())));
    DuplicateValueException onChange = assertThrows(DuplicateValueException.class,
        () -> members.transact(bob, member -> member.changeEmail(annEmail)));

    assertEquals("member", onCreate.aggregateName());
    assertEquals("email", onCreate.column());
    assertEquals(annEmail.toUpperCase(), onCreate.value());
    assertEquals(Optional.of(ann.value()), onCreate.holderId());
    assertEquals(Optional.of(ann.value()), onChange.holderId());
    assertEquals(Optional.empty(), members.findById(copycat));
    assertEquals(1, members.loadVersioned(bob).version());
    assertEquals(ann, members.loadByEmail(annEmail.toUpperCase()).id());

    members.transact(ann, member -> member.changeEmail("new-" + annEmail));
    members.transact(bob, member -> member.changeEmail(annEmail));
    assertEquals(bob, members.loadByEmail(annEmail).id());
    assertEquals(ann, members.loadByEmail("new-" + annEmail).id());
  }

  // ---------------------------------------------------------------------------------------- lookups

  @Test
  void aListingByValuePagesThroughEveryHolderOnceByIdInUtf8Order() {
    String team = "team-" + UUID.randomUUID();
    String run = UUID.randomUUID().toString();
    // U+FFFD sorts after "z" in both orders, the emoji (beyond U+FFFF) after U+FFFD only in UTF-8 order.
    List<String> ids = List.of("b" + run, "\uD83D\uDE00" + run, "a" + run, "\uFFFD" + run, "z" + run);
    for (String value : ids) {
      MemberId id = new MemberId(value);
      members.create(Member.joining(id, team, email(id)));
    }
    MemberId elsewhere = MemberId.random();
    members.create(Member.joining(elsewhere, "not-" + team, email(elsewhere)));

    List<Page<Member>> pages = pages(request -> members.listByTeam(team, request), 2);

    List<String> expected = ids.stream().sorted(Comparator.comparing(EventStoreContract::utf8, Arrays::compareUnsigned))
        .toList();
    assertEquals(expected, pages.stream().flatMap(p -> p.items().stream()).map(m -> m.id().value()).toList());
    assertTrue(pages.stream().allMatch(page -> page.items().size() <= 2));
    assertEquals(new MemberId(expected.get(0)), members.loadByTeam(team).id());
  }

  @Test
  void aFullLastPageStillHasACursorAndThePageAfterItIsEmptyAndLast() {
    String team = "team-" + UUID.randomUUID();
    for (int i = 0; i < 2; i++) {
      MemberId id = MemberId.random();
      members.create(Member.joining(id, team, email(id)));
    }

    Page<Member> full = members.listByTeam(team, PageRequest.first(2));
    Page<Member> after = members.listByTeam(team, PageRequest.after(full.nextCursor().orElseThrow(), 2));

    assertEquals(2, full.items().size());
    assertEquals(List.of(), after.items());
    assertEquals(Optional.empty(), after.nextCursor());
  }

  @Test
  void aChangedValueMovesTheAggregateFromOneListingToTheOther() {
    String red = "red-" + UUID.randomUUID();
    String blue = "blue-" + UUID.randomUUID();
    MemberId id = MemberId.random();
    members.create(Member.joining(id, red, email(id)));

    members.transact(id, member -> member.moveTo(blue));

    assertEquals(List.of(), members.listByTeam(red, PageRequest.first(10)).items());
    assertEquals(List.of(id),
        members.listByTeam(blue, PageRequest.first(10)).items().stream().map(Member::id).toList());
    assertEquals(Optional.empty(), members.findByTeam(red));
  }

  @Test
  void listAllPagesThroughEveryStreamOfTheTypeOnceShardByShardInTheLayoutsOrder() {
    AggregateDefinition<Member, MemberId, MemberEvent> type = Definitions.renamed(definition(), freshTypeName());
    MemberRepository ofType = MemberRepository.withDefinition(store, type);
    String run = UUID.randomUUID().toString().substring(0, 8);
    // Characters below '-', and "-" with zeros, sort an id before its prefix by the journal's head-row key,
    // after it by id.
    List<String> ids = new ArrayList<>();
    for (String stem : List.of("a", "a b", "a-b", "a.b", "a!", "a-", "a-0", "b", "c", "d")) {
      ids.add(run + stem);
    }
    for (String value : ids) {
      MemberId id = new MemberId(value);
      Versioned<Member> created = ofType.create(Member.joining(id, "red", email(id)));
      if (value.endsWith("a") || value.endsWith("b")) {
        // Two snapshots, so the journal keeps the older one beside the head row.
        ofType.append(ofType.append(created, threePoints()), threePoints());
      }
    }

    List<Page<Member>> pages = pages(ofType::listAll, 3);

    Comparator<String> withinShard = Comparator.comparing(
        (String aid) -> utf8(layout == LayoutKind.JOURNAL ? type.name() + "-" + aid + "-" + "0".repeat(20) : aid),
        Arrays::compareUnsigned);
    List<String> expected = ids.stream()
        .sorted(Comparator.comparingLong((String aid) -> shard(aid, type.shards())).thenComparing(withinShard))
        .toList();
    assertEquals(expected, pages.stream().flatMap(p -> p.items().stream()).map(m -> m.id().value()).toList());
    // Full until the last, on the journal too: kept older snapshot rows, which count against DynamoDB's
    // query limit, are read past within the page.
    assertTrue(pages.subList(0, pages.size() - 1).stream().allMatch(page -> page.items().size() == 3));
  }

  @Test
  void findAllReturnsTheStoredOnesInTheOrderAskedEachOnce() {
    MemberId a = MemberId.random();
    MemberId b = MemberId.random();
    members.create(Member.joining(a, "red", email(a)));
    members.create(Member.joining(b, "red", email(b)));

    Map<MemberId, Member> found = members.findAll(List.of(b, MemberId.random(), a, b));

    assertEquals(List.of(b, a), List.copyOf(found.keySet()));
    assertEquals(a, found.get(a).id());
  }

  @Test
  void aCursorOfAnotherListingIsRefused() {
    String team = "team-" + UUID.randomUUID();
    for (int i = 0; i < 2; i++) {
      MemberId id = MemberId.random();
      members.create(Member.joining(id, team, email(id)));
    }
    String byTeam = members.listByTeam(team, PageRequest.first(1)).nextCursor().orElseThrow();
    MemberRepository ofType =
        MemberRepository.withDefinition(store, Definitions.renamed(definition(), freshTypeName()));
    for (int i = 0; i < 2; i++) {
      MemberId id = MemberId.random();
      ofType.create(Member.joining(id, team, email(id)));
    }
    String otherType = ofType.listByTeam(team, PageRequest.first(1)).nextCursor().orElseThrow();

    assertEquals(InvalidCursorException.Problem.OTHER_QUERY, assertThrows(InvalidCursorException.class,
        () -> members.listByTeam("not-" + team, PageRequest.after(byTeam, 1))).problem());
    assertEquals(InvalidCursorException.Problem.OTHER_QUERY, assertThrows(InvalidCursorException.class,
        () -> members.listAll(PageRequest.after(byTeam, 1))).problem());
    assertEquals(InvalidCursorException.Problem.OTHER_AGGREGATE, assertThrows(InvalidCursorException.class,
        () -> members.listByTeam(team, PageRequest.after(otherType, 1))).problem());
    assertEquals(InvalidCursorException.Problem.MALFORMED, assertThrows(InvalidCursorException.class,
        () -> members.listByTeam(team, PageRequest.after(byTeam.substring(0, byTeam.length() - 2), 1))).problem());
  }

  @Test
  void aCursorOfAnotherListingIsRefusedAlsoForAValueNoAggregateCanHold() {
    String team = "team-" + UUID.randomUUID();
    for (int i = 0; i < 2; i++) {
      MemberId id = MemberId.random();
      members.create(Member.joining(id, team, email(id)));
    }
    String byTeam = members.listByTeam(team, PageRequest.first(1)).nextCursor().orElseThrow();
    String unfit = "x".repeat(3000);   // longer than any index key: no aggregate can hold it

    assertEquals(new Page<>(List.of(), Optional.empty()), members.listByTeam(unfit, PageRequest.first(1)));
    assertEquals(InvalidCursorException.Problem.OTHER_QUERY, assertThrows(InvalidCursorException.class,
        () -> members.listByTeam(unfit, PageRequest.after(byTeam, 1))).problem());
  }

  @Test
  void aListAllCursorOfTheOtherLayoutIsRefused() {
    AggregateDefinition<Member, MemberId, MemberEvent> type = Definitions.renamed(definition(), freshTypeName());
    LayoutKind other = layout == LayoutKind.JOURNAL ? LayoutKind.TIP : LayoutKind.JOURNAL;
    MemberRepository here = MemberRepository.withDefinition(store, type);
    MemberRepository there = MemberRepository.withDefinition(store, type.withLayout(other, type.tipPolicy()));
    for (MemberRepository repository : List.of(here, there)) {
      for (int i = 0; i < 2; i++) {
        MemberId id = MemberId.random();
        repository.create(Member.joining(id, "red", email(id)));
      }
    }
    // The same aggregate name and listing, but a position in the other layout's keys (an aggregate type
    // moved to the other layout, with a cursor kept from before).
    String fromThere = there.listAll(PageRequest.first(1)).nextCursor().orElseThrow();

    assertEquals(InvalidCursorException.Problem.MALFORMED, assertThrows(InvalidCursorException.class,
        () -> here.listAll(PageRequest.after(fromThere, 1))).problem());
  }

  // ---------------------------------------------------------------------------------------- history

  @Test
  void eachEventComesBackWithItsTypeNameMetadataAndTheClocksTimeAtItsAppend() {
    MemberId id = MemberId.random();
    Instant opened = Instant.parse("2026-03-04T05:06:07.123456789Z");
    clock.set(opened);
    EventMetadata given = EventMetadata.none().withCorrelationId("c-1").withActor("tester").with("channel", "web");
    members.create(AppendOptions.metadata(given), List.of(Member.joining(id, "red", email(id))));
    Instant awarded = clock.advance(Duration.ofHours(1));
    EventContext.with(EventMetadata.none().withCorrelationId("c-2"))
        .run(() -> members.transact(id, member -> member.award(3)));

    List<RecordedEvent<MemberEvent>> events = members.events(id).toList();

    assertEquals(List.of(
        new RecordedEvent<>("member", id.value(), 1, "joined", opened, given, Member.joining(id, "red", email(id))),
        new RecordedEvent<>("member", id.value(), 2, "points-awarded", awarded,
            EventMetadata.none().withCorrelationId("c-2"), new PointsAwarded(3))), events);
  }

  @Test
  void aLongHistoryComesBackInOrderFromAnyStart() {
    MemberId id = MemberId.random();
    Versioned<Member> current = members.create(Member.joining(id, "red", email(id)));
    while (current.seqNr() < 250) {
      List<MemberEvent> batch = new ArrayList<>();
      for (int i = 0; i < 9; i++) {
        batch.add(new PointsAwarded(1));
      }
      current = members.append(current, batch);
    }
    long last = current.seqNr();

    List<Long> all = members.events(id).map(RecordedEvent::seqNr).toList();
    List<Long> fromMiddle = members.events(id, 120).map(RecordedEvent::seqNr).toList();

    assertEquals(rangeClosed(1, last), all);
    assertEquals(rangeClosed(120, last), fromMiddle);
    assertThrows(AggregateNotFoundException.class, () -> members.events(MemberId.random()));
  }

  @Test
  void anEventItsCodecCannotReadBackFailsTheReadNamingItButNotItsContent() {
    MemberRepository unreadable =
        MemberRepository.withDefinition(store, Definitions.failingEvents(definition(), "noted", false));
    MemberId id = MemberId.random();
    unreadable.create(Member.joining(id, "red", email(id)));
    unreadable.transact(id, member -> member.note("secret-" + id.value()));

    EventDecodingException e = assertThrows(EventDecodingException.class, () -> unreadable.events(id).toList());

    assertEquals(2, e.seqNr());
    assertEquals("noted", e.eventType());
    assertEquals(id.value(), e.aggregateId());
    assertFalse(e.getMessage().contains("secret-"), e.getMessage());
  }

  @Test
  void aSnapshotItsCodecCannotReadBackFailsTheLoad() {
    MemberRepository unreadable = MemberRepository.withDefinition(store, Definitions.unreadableSnapshots(definition()));
    MemberId id = MemberId.random();
    unreadable.create(Member.joining(id, "red", email(id)));

    SnapshotDecodingException e = assertThrows(SnapshotDecodingException.class, () -> unreadable.load(id));

    assertTrue(e.getMessage().contains(id.value()), e.getMessage());
  }

  @Test
  void anEventItsCodecCannotWriteIsRefusedAndNothingIsStored() {
    MemberRepository unwritable =
        MemberRepository.withDefinition(store, Definitions.failingEvents(definition(), "noted", true));
    MemberId id = MemberId.random();
    unwritable.create(Member.joining(id, "red", email(id)));

    EventEncodingException e = assertThrows(EventEncodingException.class,
        () -> unwritable.transact(id, member -> member.note("x")));

    assertEquals("noted", e.eventType());
    assertEquals(1, members.loadVersioned(id).version());
  }

  // ---------------------------------------------------------------------------------------- limits

  @Test
  void anItemExactlyAtTheLimitIsStoredAndOneByteMoreIsRefusedBeforeAnythingIsSent() {
    // Events only on the tip, so that the event is all the tip holds besides its keys, and a threshold of a
    // whole item, so that the event stays in the tip (past the threshold on its own, an event that fits a batch
    // item goes to one, whose limit this is not).
    MemberRepository members = layout == LayoutKind.TIP
        ? MemberRepository.withDefinition(store, definition().withLayout(LayoutKind.TIP,
            new TipPolicy((int) LIMIT, TipPolicy.DEFAULT_MAX_EVENTS, true).withoutSnapshot()))
        : this.members;
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    int atLimit = noteAtTheLimit(members, id);

    ItemTooLargeException oneMore = assertThrows(ItemTooLargeException.class,
        () -> members.append(id, 1, new Noted("x".repeat(atLimit + 1))));
    Versioned<Member> stored = members.append(id, 1, new Noted("x".repeat(atLimit)));

    assertEquals(layout == LayoutKind.JOURNAL ? "event 2" : "tip with events 2 to 2", oneMore.item());
    assertEquals(LIMIT + 1, oneMore.sizeBytes());
    assertEquals(LIMIT, oneMore.limitBytes());
    assertEquals(stored, members.loadVersioned(id));
    assertEquals(atLimit, members.load(id).note().length());
  }

  @Test
  void aSnapshotTooLargeForItsItemIsSkippedAndReportedAndTheStreamStillLoads() {
    MemberId id = MemberId.random();
    // The journal's head row holds the snapshot alone: a note at the event limit makes it too large. A tip
    // of 400 KB holds event and snapshot together: a note of 250 KB is too large for both. (Under smaller
    // thresholds the note alone goes to a batch item, and the snapshot fits the tip.)
    MemberRepository members = layout == LayoutKind.JOURNAL ? this.members : MemberRepository.withDefinition(store,
        definition().withLayout(LayoutKind.TIP, new TipPolicy(409_600, 0, true)));
    members.create(Member.joining(id, "red", email(id)));
    int note = layout == LayoutKind.JOURNAL ? noteAtTheLimit(members, id) : 250_000;

    members.append(id, 1, new Noted("x".repeat(note)));
    members.transact(id, member -> member.award(1));
    members.transact(id, member -> member.award(1));

    assertEquals(new Versioned<>(new Member(id, "red", email(id), 2, "x".repeat(note)), 4, 4),
        members.loadVersioned(id));
    List<SkippedSnapshot> skipped = listener.skipped(id.value());
    assertFalse(skipped.isEmpty(), "the state with the note is too large for a snapshot");
    assertTrue(skipped.stream().allMatch(s -> s.sizeBytes() > LIMIT && s.limitBytes() == LIMIT), skipped.toString());
  }

  /**
   * A skipped snapshot is reported once per append stored without it, never for an append refused: on the tip
   * the probe too large for its item, the attempt of a transact that lost to another writer, and a change to an
   * address another member holds would each have left out a snapshot too large for its item.
   */
  @Test
  void aSkippedSnapshotIsReportedOnlyForAnAppendThatWasStored() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    int note = noteAtTheLimit(members, id);
    members.append(id, 1, new Noted("x".repeat(note)));
    MemberId holder = MemberId.random();
    members.create(Member.joining(holder, "red", email(holder)));
    AtomicInteger decisions = new AtomicInteger();

    Versioned<Member> retried = members.transact(id, member -> {
      if (decisions.getAndIncrement() == 0) {
        members.append(id, 2, new PointsAwarded(1));
      }
      return member.award(1);
    });
    assertThrows(DuplicateValueException.class,
        () -> members.transact(id, member -> member.changeEmail(email(holder))));
    Versioned<Member> stored = members.transact(id, member -> member.award(1));

    assertEquals(4, retried.seqNr());
    assertEquals(5, stored.seqNr());
    // The journal's snapshot falls due at seq_nr 4 and, skipped, again at 5; the tip's at every append.
    assertEquals(layout == LayoutKind.JOURNAL ? List.of(4L, 5L) : List.of(2L, 3L, 4L, 5L),
        listener.skipped(id.value()).stream().map(SkippedSnapshot::seqNr).toList());
  }

  // ---------------------------------------------------------------------------------------- evolution

  /**
   * A snapshot written by code of another fingerprint is never decoded: the state is folded from the events,
   * and the next append writes a fresh snapshot with the current fingerprint (on the journal whatever the
   * snapshot interval says), which the earlier code then ignores in turn.
   */
  @Test
  void aSnapshotOfAnotherFingerprintIsIgnoredAndRewrittenByTheNextAppend() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    members.append(id, 1, List.of(new PointsAwarded(5), new PointsAwarded(7)));
    MemberRepository changed =
        MemberRepository.withDefinition(store, Definitions.changedAndUnreadableSnapshots(definition()));

    assertEquals(new Versioned<>(new Member(id, "red", email(id), 12, ""), 2, 3), changed.loadVersioned(id),
        "the earlier snapshot was not decoded");
    changed.transact(id, member -> member.award(1));

    SnapshotDecodingException fresh = assertThrows(SnapshotDecodingException.class, () -> changed.load(id));
    assertEquals(4, fresh.seqNr(), "the append wrote a snapshot with the changed fingerprint");
    assertEquals(new Versioned<>(new Member(id, "red", email(id), 13, ""), 3, 4), members.loadVersioned(id),
        "the earlier code ignores it in turn");
  }

  @Test
  void anAppendOfMoreThanOneHundredEventsIsRefusedOnTheJournalAndStoredOnTheTip() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    List<MemberEvent> many = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      many.add(new PointsAwarded(1));
    }

    if (layout == LayoutKind.JOURNAL) {
      TransactionTooLargeException e = assertThrows(TransactionTooLargeException.class,
          () -> members.append(id, 1, many));
      assertTrue(e.actionCount() > 100, e.getMessage());
      assertEquals(1, members.loadVersioned(id).version());
    } else {
      assertEquals(new Versioned<>(new Member(id, "red", email(id), 100, ""), 2, 101), members.append(id, 1, many));
    }
  }

  // ---------------------------------------------------------------------------------------- reindex

  @Test
  void reindexMakesStreamsStoredBeforeTheirColumnsFindableAndReportsDuplicates() {
    AggregateDefinition<Member, MemberId, MemberEvent> type = Definitions.renamed(definition(), freshTypeName());
    MemberRepository before = MemberRepository.withDefinition(store, Definitions.withoutColumns(type));
    MemberRepository after = MemberRepository.withDefinition(store, type);
    String team = "team-" + UUID.randomUUID();
    MemberId first = MemberId.random();
    MemberId second = MemberId.random();
    MemberId copy = MemberId.random();
    before.create(Member.joining(first, team, email(first)));
    before.create(Member.joining(second, team, email(second)));
    before.create(Member.joining(copy, team, email(first)));
    assertEquals(Optional.empty(), after.findByEmail(email(first)));
    assertEquals(List.of(), after.listByTeam(team, PageRequest.first(10)).items());

    Versioned<Member> reindexed = after.reindex(first);
    ReindexReport<MemberId> report = after.reindexAll();

    assertEquals(new Versioned<>(new Member(first, team, email(first), 0, ""), 1, 1), reindexed);
    assertEquals(2, report.reindexed());
    assertEquals(List.of(new ReindexReport.Duplicate<>(copy, "email", email(first), Optional.of(first))),
        report.duplicates());
    assertEquals(first, after.loadByEmail(email(first)).id());
    assertEquals(second, after.loadByEmail(email(second)).id());
    assertEquals(List.of(first, second).stream().sorted(Comparator.comparing(MemberId::value)).toList(),
        after.listByTeam(team, PageRequest.first(10)).items().stream().map(Member::id).toList(),
        "the duplicate's reindex wrote nothing, its team neither");
    assertEquals(1, after.loadVersioned(copy).version(), "a reindex appends no event");
  }

  // ---------------------------------------------------------------------------------------- listener

  @Test
  void theListenerHearsEveryOperationOnceWithItsOutcome() {
    AggregateDefinition<Member, MemberId, MemberEvent> type = Definitions.renamed(definition(), freshTypeName());
    MemberRepository ofType = MemberRepository.withDefinition(store, type);
    MemberId id = MemberId.random();

    ofType.create(Member.joining(id, "red", email(id)));
    ofType.transact(id, member -> member.award(1));
    ofType.load(id);
    assertThrows(AggregateNotFoundException.class, () -> ofType.load(MemberId.random()));

    List<OperationMetrics> heard = listener.operations(type.name());
    assertEquals(List.of("create", "transact", "load", "load"),
        heard.stream().map(OperationMetrics::operation).toList());
    assertEquals(1, heard.get(1).attempts());
    assertEquals(List.of(false, false, false, true), heard.stream().map(m -> m.failure().isPresent()).toList());
  }

  // ---------------------------------------------------------------------------------------- order of checks

  /**
   * An append with two problems is refused for the one the layout finds first, before anything is stored: the
   * journal encodes and measures its events one by one, then computes the index changes; the tip computes the
   * index changes first, then encodes every event, then measures its items.
   */
  @Test
  void anAppendWithTwoProblemsIsRefusedForTheOneItsLayoutFindsFirst() {
    MemberRepository unwritable =
        MemberRepository.withDefinition(store, Definitions.failingEvents(definition(), "points-awarded", true));
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", email(id)));
    Noted tooLarge = new Noted("x".repeat(420_000));
    MemberEvent keyTooLong = new MemberEvent.TeamChanged("t".repeat(3_000));

    RuntimeException largeThenUnwritable = assertThrows(RuntimeException.class,
        () -> unwritable.append(id, 1, List.of(tooLarge, new PointsAwarded(1))));
    RuntimeException largeThenKeyTooLong = assertThrows(RuntimeException.class,
        () -> members.append(id, 1, List.of(tooLarge, keyTooLong)));
    RuntimeException unwritableThenKeyTooLong = assertThrows(RuntimeException.class,
        () -> unwritable.append(id, 1, List.of(new PointsAwarded(1), keyTooLong)));

    if (layout == LayoutKind.JOURNAL) {
      assertEquals(ItemTooLargeException.class, largeThenUnwritable.getClass(), largeThenUnwritable.toString());
      assertEquals(ItemTooLargeException.class, largeThenKeyTooLong.getClass(), largeThenKeyTooLong.toString());
      assertEquals(EventEncodingException.class, unwritableThenKeyTooLong.getClass(),
          unwritableThenKeyTooLong.toString());
    } else {
      assertEquals(EventEncodingException.class, largeThenUnwritable.getClass(), largeThenUnwritable.toString());
      assertEquals(IllegalArgumentException.class, largeThenKeyTooLong.getClass(), largeThenKeyTooLong.toString());
      assertEquals(IllegalArgumentException.class, unwritableThenKeyTooLong.getClass(),
          unwritableThenKeyTooLong.toString());
    }
    assertEquals(1, members.loadVersioned(id).version());
  }

  // ---------------------------------------------------------------------------------------- metadata

  /**
   * DynamoDB refuses a map with an empty key ("Empty attribute name"), and a name with half a surrogate pair
   * has no UTF-8 form: stored, it makes the item unreadable (every read of it fails as a response the SDK
   * cannot parse). Such metadata is refused before anything is sent, on every store; everything else
   * comes back as given.
   */
  @Test
  void metadataWithANameDynamoDbCannotStoreIsRefusedAndNothingIsStored() {
    for (String name : List.of("", "\uD800", "a\uDC00")) {
      MemberId id = MemberId.random();
      assertThrows(IllegalArgumentException.class, () -> members.create(
          AppendOptions.metadata(EventMetadata.none().with(name, "v")), List.of(Member.joining(id, "red", email(id)))));
      assertEquals(Optional.empty(), members.findById(id));
    }
    MemberId id = MemberId.random();
    EventMetadata given = EventMetadata.none().withCorrelationId("").with("k", "").with("\uD83D\uDE00", "v");
    members.create(AppendOptions.metadata(given), List.of(Member.joining(id, "red", email(id))));
    assertEquals(given, members.events(id).toList().get(0).metadata());
  }

  /**
   * A null list of events is refused, naming the argument, by every way of writing, a decide function's
   * included; nothing is stored.
   */
  @Test
  void aNullListOfEventsIsRefusedAndNothingIsStored() {
    MemberId id = MemberId.random();
    Versioned<Member> created = members.create(Member.joining(id, "red", email(id)));
    List<MemberEvent> none = null;

    for (Executable write : List.<Executable>of(
        () -> members.create(none),
        () -> members.create("create-" + id.value(), none),
        () -> members.append(id, 1, none),
        () -> members.append(id, 1, "append-" + id.value(), none),
        () -> members.append(created, none))) {
      assertEquals(members.definition().name() + ": the events are null",
          assertThrows(NullPointerException.class, write).getMessage());
    }
    int[] decisions = {0};
    NullPointerException nullDecision = assertThrows(NullPointerException.class, () -> members.transact(id, member -> {
      decisions[0]++;
      return none;
    }));
    assertEquals(members.definition().name() + ": the decision returned null; return List.of() to append nothing",
        nullDecision.getMessage());
    assertEquals(1, decisions[0], "a null list is refused as it is, not taken for a refusal to decide again");
    assertEquals(1, members.loadVersioned(id).version());
  }

  // ---------------------------------------------------------------------------------------- helpers

  /** The generated definition in the layout under test; on the tip, calving every 5 events to read batches too. */
  AggregateDefinition<Member, MemberId, MemberEvent> definition() {
    return MemberRepository.definition(store.objectMapper())
        .withLayout(layout, new TipPolicy(TipPolicy.DEFAULT_MAX_BYTES, 5, true));
  }

  /**
   * The longest note an append to {@code id} (at version 1) can carry: one that makes its item exactly 400 KB.
   * Each character of a note is one byte of the item, so the size esgen reports for a note too large tells.
   */
  static int noteAtTheLimit(MemberRepository members, MemberId id) {
    int probe = 420_000;
    ItemTooLargeException tooLarge = assertThrows(ItemTooLargeException.class,
        () -> members.append(id, 1, new Noted("x".repeat(probe))));
    return probe - (int) (tooLarge.sizeBytes() - LIMIT);
  }

  /**
   * Creates {@code id} (unless the probe of {@link #noteAtTheLimit} did), notes {@code note} characters and
   * awards a point twice: the snapshot after the creating one falls due at seq_nr 4, with the note in it.
   */
  Versioned<Member> noteAndAwardTwice(MemberId id, int note) {
    if (members.findById(id).isEmpty()) {
      members.create(Member.joining(id, "red", email(id)));
    }
    members.append(id, 1, new Noted("x".repeat(note)));
    members.transact(id, member -> member.award(1));
    return members.transact(id, member -> member.award(1));
  }

  /** As {@link #noteAndAwardTwice(MemberId, int)}, through {@code repository}, in {@code team}. */
  static Versioned<Member> noteAndAwardTwice(MemberRepository repository, MemberId id, String team, int note) {
    if (repository.findById(id).isEmpty()) {
      repository.create(Member.joining(id, team, email(id)));
    }
    repository.append(id, 1, new Noted("x".repeat(note)));
    repository.transact(id, member -> member.award(1));
    return repository.transact(id, member -> member.award(1));
  }

  /** An address of {@code id}'s own, also for ids an address cannot hold. */
  static String email(MemberId id) {
    return "m-" + UUID.nameUUIDFromBytes(utf8(id.value())) + "@example.com";
  }

  static String freshTypeName() {
    return "member-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static long shard(String aid, int shards) {
    CRC32 crc = new CRC32();
    crc.update(utf8(aid));
    return crc.getValue() % shards;
  }

  private static List<MemberEvent> threePoints() {
    return List.of(new PointsAwarded(1), new PointsAwarded(1), new PointsAwarded(1));
  }

  private static List<Long> rangeClosed(long from, long to) {
    List<Long> range = new ArrayList<>();
    for (long n = from; n <= to; n++) {
      range.add(n);
    }
    return range;
  }

  /** Every page of a listing, read {@code size} at a time until a page has no cursor. */
  private static List<Page<Member>> pages(Function<PageRequest, Page<Member>> listing, int size) {
    List<Page<Member>> pages = new ArrayList<>();
    Page<Member> page = listing.apply(PageRequest.first(size));
    pages.add(page);
    while (page.nextCursor().isPresent()) {
      page = listing.apply(PageRequest.after(page.nextCursor().get(), size));
      pages.add(page);
    }
    return pages;
  }

  /** Runs {@code tasks} on threads of their own, releases them together with {@code start}, and waits for all. */
  private static List<String> runTogether(List<Callable<String>> tasks, CountDownLatch start) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
    try {
      List<Future<String>> futures = new ArrayList<>();
      for (Callable<String> task : tasks) {
        futures.add(pool.submit(task));
      }
      start.countDown();
      List<String> results = new ArrayList<>();
      for (Future<String> future : futures) {
        results.add(future.get(2, TimeUnit.MINUTES));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
