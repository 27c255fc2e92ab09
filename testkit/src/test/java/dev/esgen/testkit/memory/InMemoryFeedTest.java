package dev.esgen.testkit.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.feed.DeliveryFailure;
import dev.esgen.runtime.feed.FeedListener;
import dev.esgen.runtime.feed.Projection;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.testkit.member.Member;
import dev.esgen.testkit.member.MemberEvent;
import dev.esgen.testkit.member.MemberEvent.PointsAwarded;
import dev.esgen.testkit.member.MemberId;
import dev.esgen.testkit.member.MemberRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InMemoryFeedTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final RetryPolicy QUICK =
      new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(5));

  private final InMemoryEventStore store = InMemoryEventStore.create();
  private final MemberRepository members = new MemberRepository(store);

  @Test
  void eachStreamsEventsArriveOnceInSeqNrOrderAlsoThoseStoredBeforeTheFeedStarted() throws Exception {
    MemberId before = join();
    award(before, 3);
    Seen seen = new Seen();
    MemberId ann = join();
    MemberId bob = join();

    try (InMemoryFeed feed = InMemoryFeed.builder(store).projection("seen", members.definition(), seen).start()) {
      for (int i = 0; i < 5; i++) {
        award(ann, 1);
        award(bob, 2);
      }
      feed.awaitCaughtUp(WAIT);

      assertEquals(upTo(2), seen.seqNrs(before));
      assertEquals(upTo(6), seen.seqNrs(ann));
      assertEquals(upTo(6), seen.seqNrs(bob));
      assertEquals(6, feed.position("seen", members.definition(), bob));
      assertEquals(List.of("joined", "points-awarded"), seen.types(bob).subList(0, 2));
    }
  }

  @Test
  void aFailingEventIsTriedAgainAndReportedWhileItsStreamWaitsAndOthersGoOn() throws Exception {
    MemberId stuck = join();
    MemberId other = join();
    Seen seen = new Seen();
    AtomicInteger failures = new AtomicInteger();
    Projection<MemberEvent> failingTwiceAtTwo = event -> {
      if (event.aggregateId().equals(stuck.value()) && event.seqNr() == 2 && failures.incrementAndGet() <= 2) {
        throw new IllegalStateException("read model unavailable");
      }
      seen.handle(event);
    };
    List<DeliveryFailure> reported = new CopyOnWriteArrayList<>();

    try (InMemoryFeed feed = InMemoryFeed.builder(store)
        .projection("flaky", members.definition(), failingTwiceAtTwo)
        .retryPolicy(QUICK)
        .listener(listener(reported))
        .start()) {
      award(stuck, 1);
      award(stuck, 1);
      award(other, 1);
      feed.awaitCaughtUp(WAIT);

      assertEquals(upTo(3), seen.seqNrs(stuck));
      assertEquals(upTo(2), seen.seqNrs(other));
      assertEquals(2, reported.size());
      assertEquals(List.of(1, 2), reported.stream().map(DeliveryFailure::attempt).toList());
      assertTrue(reported.stream().allMatch(f -> f.willRetry() && f.seqNr() == 2 && f.projection().equals("flaky")
          && f.aggregateId().equals(stuck.value()) && f.failure() instanceof IllegalStateException));
    }
  }

  @Test
  void aStreamFailingBeyondThePolicyIsGivenUpUntilItsNextEventAndNothingOvertakesIt() throws Exception {
    MemberId stuck = join();
    Seen seen = new Seen();
    AtomicBoolean broken = new AtomicBoolean(true);
    Projection<MemberEvent> brokenAtTwo = event -> {
      if (event.seqNr() == 2 && broken.get()) {
        throw new IllegalStateException("read model unavailable");
      }
      seen.handle(event);
    };
    List<DeliveryFailure> reported = new CopyOnWriteArrayList<>();

    try (InMemoryFeed feed = InMemoryFeed.builder(store)
        .projection("broken", members.definition(), brokenAtTwo)
        .retryPolicy(QUICK)
        .listener(listener(reported))
        .start()) {
      award(stuck, 1);
      award(stuck, 1);

      ProjectionFailedException failed = assertThrows(ProjectionFailedException.class, () -> feed.awaitCaughtUp(WAIT));
      assertEquals("broken", failed.projection());
      assertEquals(stuck.value(), failed.aggregateId());
      assertEquals(2, failed.seqNr());
      assertEquals("points-awarded", failed.eventType());
      assertEquals(3, failed.attempts());
      assertInstanceOf(IllegalStateException.class, failed.getCause());
      assertEquals(upTo(1), seen.seqNrs(stuck));
      assertEquals(1, feed.position("broken", members.definition(), stuck));
      assertFalse(reported.get(2).willRetry());

      broken.set(false);
      award(stuck, 1);
      feed.awaitCaughtUp(WAIT);
      assertEquals(upTo(4), seen.seqNrs(stuck));
    }
  }

  /**
   * An append that lands while the stream's last attempt is failing is a new event of the stream, like one
   * that comes after the stream was given up: the stream is tried again. The handler appends from inside the
   * failing attempt, so the append lands within it every time.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void anAppendWhileTheLastAttemptFailsTriesTheStreamAgain(int attempts) throws Exception {
    MemberId stuck = join();
    Seen seen = new Seen();
    AtomicInteger tries = new AtomicInteger();
    Projection<MemberEvent> failingAtTwoUntilAnAppend = event -> {
      if (event.seqNr() == 2) {
        int attempt = tries.incrementAndGet();
        if (attempt == attempts) {
          award(stuck, 1);
        }
        if (attempt <= attempts) {
          throw new IllegalStateException("read model unavailable");
        }
      }
      seen.handle(event);
    };
    List<DeliveryFailure> reported = new CopyOnWriteArrayList<>();

    try (InMemoryFeed feed = InMemoryFeed.builder(store)
        .projection("flaky", members.definition(), failingAtTwoUntilAnAppend)
        .retryPolicy(new RetryPolicy(attempts, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(5)))
        .listener(listener(reported))
        .start()) {
      award(stuck, 1);
      feed.awaitCaughtUp(WAIT);

      assertEquals(upTo(3), seen.seqNrs(stuck));
      assertEquals(attempts + 1, tries.get());
      assertEquals(attempts, reported.size());
      assertFalse(reported.get(attempts - 1).willRetry(), "the last attempt is reported as the last");
    }
  }

  @Test
  void waitingForCatchUpWhileOthersAppendSeesEveryStreamAsAnUnbrokenPrefixAndFinallyWhole() throws Exception {
    Seen seen = new Seen();
    List<MemberId> ids = List.of(join(), join(), join(), join());
    ExecutorService writers = Executors.newFixedThreadPool(ids.size());
    try (InMemoryFeed feed = InMemoryFeed.builder(store).projection("seen", members.definition(), seen).start()) {
      List<Future<?>> writing = new ArrayList<>();
      for (MemberId id : ids) {
        writing.add(writers.submit(() -> {
          for (int i = 0; i < 50; i++) {
            members.transact(id, member -> member.award(1));
          }
        }));
      }
      MemberId shared = ids.get(0);
      while (!writing.stream().allMatch(Future::isDone)) {
        feed.awaitCaughtUp(WAIT);
        List<Long> delivered = seen.seqNrs(shared);
        assertEquals(upTo(delivered.size()), delivered);
      }
      for (Future<?> future : writing) {
        future.get();
      }
      feed.awaitCaughtUp(WAIT);

      for (MemberId id : ids) {
        assertEquals(upTo(51), seen.seqNrs(id));
      }
    } finally {
      writers.shutdownNow();
    }
  }

  @Test
  void aProjectionThatCannotKeepUpMakesTheWaitTimeOutNamingTheStreamsLeft() throws Exception {
    MemberId id = join();
    Projection<MemberEvent> slow = event -> Thread.sleep(200);
    try (InMemoryFeed feed = InMemoryFeed.builder(store).projection("slow", members.definition(), slow).start()) {
      TimeoutException timedOut = assertThrows(TimeoutException.class, () -> feed.awaitCaughtUp(Duration.ofMillis(20)));
      assertEquals("the projections did not catch up within PT0.02S: 1 streams still wait", timedOut.getMessage());
      feed.awaitCaughtUp(WAIT);
      assertEquals(1, feed.position("slow", members.definition(), id));
    }
  }

  /** A timeout of centuries waits as long as it takes, rather than overflowing the nanosecond arithmetic. */
  @Test
  void aWaitOfAnyLengthWaitsUntilCaughtUp() throws Exception {
    MemberId id = join();
    Projection<MemberEvent> slow = event -> Thread.sleep(50);
    for (Duration forever : List.of(Duration.ofDays(200 * 365), Duration.ofDays(300 * 365),
        Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))) {
      award(id, 1);
      try (InMemoryFeed feed = InMemoryFeed.builder(store).projection("slow", members.definition(), slow).start()) {
        feed.awaitCaughtUp(forever);
        assertEquals(members.loadVersioned(id).seqNr(), feed.position("slow", members.definition(), id));
      }
    }
  }

  @Test
  void aProjectionIsRegisteredOncePerAggregateTypeAndAFeedNeedsOne() {
    InMemoryFeed.Builder builder = InMemoryFeed.builder(store).projection("seen", members.definition(), new Seen());

    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> builder.projection("seen", members.definition(), new Seen()));
    assertEquals("projection 'seen' already follows member; register one handler per aggregate type",
        twice.getMessage());
    IllegalStateException none = assertThrows(IllegalStateException.class, () -> InMemoryFeed.builder(store).start());
    assertEquals("an in-memory feed needs at least one projection", none.getMessage());
  }

  @Test
  void aProjectionNameChangeFeedRefusesIsRefusedHereToo() {
    for (String name : List.of("", "balances v2", "-balances", "a".repeat(129), "kontostände")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> InMemoryFeed.builder(store).projection(name, members.definition(), new Seen()), name);
      assertEquals("projection name '" + name + "' must be 1 to 128 letters, digits, '.', '_' or '-', starting with"
          + " a letter or digit", e.getMessage());
    }
    InMemoryFeed.builder(store).projection("balances_v2.1-" + "a".repeat(114), members.definition(), new Seen());
  }

  private MemberId join() {
    MemberId id = MemberId.random();
    members.create(Member.joining(id, "red", id.value() + "@example.com"));
    return id;
  }

  private void award(MemberId id, int points) {
    members.transact(id, member -> List.of(new PointsAwarded(points)));
  }

  private static List<Long> upTo(long last) {
    return LongStream.rangeClosed(1, last).boxed().toList();
  }

  private static FeedListener listener(List<DeliveryFailure> reported) {
    return new FeedListener() {
      @Override
      public void onDeliveryFailure(DeliveryFailure failure) {
        reported.add(failure);
      }
    };
  }

  /** Records what it is handed, per stream, in the order handed. */
  private static final class Seen implements Projection<MemberEvent> {
    private final Map<String, List<RecordedEvent<MemberEvent>>> byStream = new ConcurrentHashMap<>();

    @Override
    public void handle(RecordedEvent<MemberEvent> event) {
      byStream.computeIfAbsent(event.aggregateId(), aid -> new CopyOnWriteArrayList<>()).add(event);
    }

    List<Long> seqNrs(MemberId id) {
      return byStream.getOrDefault(id.value(), List.of()).stream().map(RecordedEvent::seqNr).toList();
    }

    List<String> types(MemberId id) {
      return byStream.getOrDefault(id.value(), List.of()).stream().map(RecordedEvent::eventType).toList();
    }
  }
}
