package dev.esgen.testkit.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.InvalidCursorException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberAsyncRepository;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The asynchronous repositories on {@link InMemoryEventStore#async()}: the same streams as the synchronous
 * ones, and the same refusals, each as the future's own exception, on both layouts.
 */
class InMemoryAsyncRepositoryTest {

  private final InMemoryEventStore store = InMemoryEventStore.create();

  private MemberAsyncRepository asyncMembers(LayoutKind layout) {
    return layout == LayoutKind.TIP
        ? MemberAsyncRepository.withDefinition(store.async(),
            MemberRepository.definition(store.objectMapper()).withLayout(LayoutKind.TIP, TipPolicy.defaults()))
        : new MemberAsyncRepository(store.async());
  }

  private MemberRepository members(LayoutKind layout) {
    return layout == LayoutKind.TIP
        ? MemberRepository.withDefinition(store,
            MemberRepository.definition(store.objectMapper()).withLayout(LayoutKind.TIP, TipPolicy.defaults()))
        : new MemberRepository(store);
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void writesAndReadsTheStreamsTheSynchronousRepositoryDoes(LayoutKind layout) {
    MemberAsyncRepository async = asyncMembers(layout);
    MemberId id = MemberId.random();
    async.create(Member.joining(id, "red", id.value() + "@example.com")).join();
    async.transact(id, member -> member.award(5)).join();

    assertEquals(5, members(layout).load(id).points());
    members(layout).transact(id, member -> member.moveTo("blue"));
    assertEquals("blue", async.load(id).join().team());
    assertEquals(List.of(id), async.listByTeam("blue", PageRequest.first(10)).join().items().stream()
        .map(Member::id).toList());
    assertEquals(id, async.loadByEmail(id.value().toUpperCase() + "@EXAMPLE.COM").join().id());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void refusalsFailTheFutureWithEsgensOwnExceptionAndStoreNothing(LayoutKind layout) {
    MemberAsyncRepository async = asyncMembers(layout);
    MemberId id = MemberId.random();
    String email = id.value() + "@example.com";
    Versioned<Member> created = async.create(Member.joining(id, "red", email)).join();

    assertInstanceOf(AggregateAlreadyExistsException.class, failure(async.create(Member.joining(id, "red", email))));
    MemberId other = MemberId.random();
    assertInstanceOf(DuplicateValueException.class, failure(async.create(Member.joining(other, "red", email))));
    async.append(created, created.state().award(1)).join();
    assertInstanceOf(VersionConflictException.class, failure(async.append(created, created.state().award(2))));

    assertEquals(1, members(layout).load(id).points());
    assertTrue(members(layout).findById(other).isEmpty());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aCommandSentTwiceIsAppliedOnce(LayoutKind layout) {
    MemberAsyncRepository async = asyncMembers(layout);
    MemberId id = MemberId.random();
    async.create(Member.joining(id, "red", id.value() + "@example.com")).join();
    AtomicInteger decided = new AtomicInteger();

    for (int i = 0; i < 2; i++) {
      async.transact(id, "award-1", member -> {
        decided.incrementAndGet();
        return member.award(3);
      }).join();
    }

    assertEquals(3, members(layout).load(id).points());
    assertEquals(1, decided.get());
  }

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void aCursorOfAnotherListingFailsTheFutureAlsoForAValueNoAggregateCanHold(LayoutKind layout) {
    MemberAsyncRepository async = asyncMembers(layout);
    String team = "team-" + MemberId.random().value();
    for (int i = 0; i < 2; i++) {
      MemberId id = MemberId.random();
      async.create(Member.joining(id, team, id.value() + "@example.com")).join();
    }
    String byTeam = async.listByTeam(team, PageRequest.first(1)).join().nextCursor().orElseThrow();
    String unfit = "x".repeat(3000);   // longer than any index key: no aggregate can hold it

    assertEquals(new Page<>(List.of(), Optional.empty()), async.listByTeam(unfit, PageRequest.first(1)).join());
    assertEquals(InvalidCursorException.Problem.OTHER_QUERY, assertInstanceOf(InvalidCursorException.class,
        failure(async.listByTeam(unfit, PageRequest.after(byTeam, 1)))).problem());
  }

  /** What {@code future} failed with, as the future holds it (not wrapped as {@code join()} wraps it). */
  private static Throwable failure(CompletableFuture<?> future) {
    return future.handle((value, failure) -> failure).join();
  }
}
