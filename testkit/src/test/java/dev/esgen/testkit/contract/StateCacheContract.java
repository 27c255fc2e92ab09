package dev.esgen.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberEvent;
import dev.esgen.testkit.member.MemberEvent.PointsAwarded;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The state cache of a store whose config switches it on, run against each store by a subclass: a read that
 * allows a cached state gets the one this definition's code last read or wrote, as {@code StateCache} says,
 * on every store.
 */
abstract class StateCacheContract {

  /** What the subclasses' stores are configured with. */
  static StoreConfig withCache(StoreConfig config) {
    return config.withStateCache(StateCachePolicy.of(1_000, Duration.ofHours(1)));
  }

  private final EventStore store;

  StateCacheContract(EventStore store) {
    this.store = store;
  }

  /**
   * Each definition remembers its own states: one whose code read version 1 gets version 1 from the cache
   * after another definition's code appended version 2, and version 2 when it reads the store.
   */
  @Test
  void aCachedReadGetsTheStateThisDefinitionLastSawAndAStrongReadTheStoredOne() {
    AggregateDefinition<Member, MemberId, MemberEvent> generated = MemberRepository.definition(store.objectMapper());
    MemberRepository writer = MemberRepository.withDefinition(store, generated);
    MemberRepository reader =
        MemberRepository.withDefinition(store, Definitions.failingEvents(generated, "no-such-type", false));
    MemberId id = MemberId.random();
    writer.create(Member.joining(id, "red", "m-" + UUID.randomUUID() + "@example.com"));
    assertEquals(0, reader.load(id).points());

    writer.append(id, 1, new PointsAwarded(5));

    assertEquals(0, reader.load(id, ReadOptions.cachedWithin(Duration.ofMinutes(5))).points(),
        "the reader's code last saw version 1");
    assertEquals(5, reader.load(id).points());
    assertEquals(5, reader.load(id, ReadOptions.cachedWithin(Duration.ofMinutes(5))).points());
  }

  /**
   * A strong read folds on from the state the cache remembers (StorageLayout#load with a remembered
   * stream): what lies before it is neither read nor decoded again. Shown with a codec that cannot read
   * back an event it wrote: the state this definition's own append left is returned, by a load and by
   * findAll, on every store.
   */
  @Test
  void aStrongReadFoldsOnFromTheRememberedStateWithoutDecodingWhatLiesBeforeIt() {
    AggregateDefinition<Member, MemberId, MemberEvent> generated = MemberRepository.definition(store.objectMapper());
    MemberRepository writer =
        MemberRepository.withDefinition(store, Definitions.failingEvents(generated, "points-awarded", false));
    MemberId id = MemberId.random();
    writer.create(Member.joining(id, "red", "m-" + UUID.randomUUID() + "@example.com"));
    writer.append(id, 1, new PointsAwarded(5));

    Versioned<Member> loaded = writer.loadVersioned(id);

    assertEquals(5, loaded.state().points());
    assertEquals(2, loaded.version());
    assertEquals(2, loaded.seqNr());
    assertEquals(loaded.state(), writer.findAll(List.of(id)).get(id));
  }
}
