package dev.esgen.runtime.internal.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.internal.journal.JournalPosition;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How long the state cache keeps an entry and which definitions share it, on a clock the test moves: an
 * entry lives the policy's age from when its stream was remembered, whatever happened to it since.
 */
class StateCacheAgeTest {

  private static final AggregateDefinition<Counter, CounterId, CounterEvent> COUNTERS =
      CounterRepository.definition(new ObjectMapper(), SnapshotPolicy.every(100));

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-27T10:00:00Z"));
  private final StateCache cache = StateCache.of(StateCachePolicy.of(100, Duration.ofSeconds(10)), clock);

  private static LoadedStream<Counter> at(long version) {
    return new LoadedStream<>(new Counter(new CounterId("a"), "c", version, 0, ""), version, version,
        new JournalPosition(0, List.of()));
  }

  private Optional<Long> versionOf(String aid) {
    return cache.find(COUNTERS, aid).map(LoadedStream::version);
  }

  @Test
  void anOlderStreamOfferedLaterNeitherReplacesTheEntryNorKeepsItLonger() {
    cache.remember(COUNTERS, "a", at(5), cache.now());
    clock.advance(Duration.ofSeconds(8));
    cache.remember(COUNTERS, "a", at(4), cache.now());        // a read that lagged behind the write
    assertEquals(Optional.of(5L), versionOf("a"));
    clock.advance(Duration.ofSeconds(3));
    assertEquals(Optional.empty(), versionOf("a"), "remembered 11 s ago, the policy keeps 10 s");
  }

  @Test
  void aForgetThatKeepsANewerEntryDoesNotKeepItLonger() {
    cache.remember(COUNTERS, "a", at(5), cache.now());
    clock.advance(Duration.ofSeconds(8));
    cache.forgetUpTo(COUNTERS, "a", 3);          // an append on version 3 was refused
    assertEquals(Optional.of(5L), versionOf("a"));
    clock.advance(Duration.ofSeconds(3));
    assertEquals(Optional.empty(), cache.find(COUNTERS, "a", Duration.ofMinutes(1)).map(LoadedStream::version),
        "remembered 11 s ago: gone, even for a caller that accepts a minute");
  }

  @Test
  void aNewerStreamLivesTheFullAgeFromWhenItWasRemembered() {
    cache.remember(COUNTERS, "a", at(5), cache.now());
    clock.advance(Duration.ofSeconds(8));
    cache.remember(COUNTERS, "a", at(6), cache.now());
    clock.advance(Duration.ofSeconds(9));
    assertEquals(Optional.of(6L), versionOf("a"), "version 6 was remembered 9 s ago");
    clock.advance(Duration.ofSeconds(2));
    assertEquals(Optional.empty(), versionOf("a"));
  }

  @Test
  void afterTheClockSteppedBackAnEntrysAgeIsUnknownAndNoCallerAskingForAnAgeGetsIt() {
    cache.remember(COUNTERS, "a", at(5), cache.now());
    clock.advance(Duration.ofSeconds(-30));
    assertEquals(Optional.empty(), cache.find(COUNTERS, "a", Duration.ofSeconds(5)).map(LoadedStream::version));
    assertEquals(Optional.of(5L), versionOf("a"),
        "a caller that appends on it conditioned on its version may still use it");
  }

  @Test
  void definitionsWithAnotherShardCountKeepEntriesApart() {
    AggregateDefinition<Counter, CounterId, CounterEvent> eightShards =
        CounterRepository.builder(new ObjectMapper(), SnapshotPolicy.every(100)).shards(8).build();
    cache.remember(COUNTERS, "a", at(5), cache.now());
    assertEquals(Optional.empty(), cache.find(eightShards, "a"), "stored under other keys: another stream");
    cache.remember(eightShards, "a", at(2), cache.now());
    assertEquals(Optional.of(2L), cache.find(eightShards, "a").map(LoadedStream::version));
    assertEquals(Optional.of(5L), versionOf("a"));
  }

  /**
   * A stream is as old as the read or write that produced it, not as the moment the call that did it
   * returned: an append settled after a long read-back, or a load retried for seconds, may hold a state
   * another writer moved on from meanwhile.
   */
  @Test
  void anEntrysAgeCountsFromBeforeItsStreamWasReadOrWritten() {
    long since = cache.now();
    clock.advance(Duration.ofSeconds(8));        // the write's read-back and resends take this long
    cache.remember(COUNTERS, "a", at(5), since);
    assertEquals(Optional.empty(), cache.find(COUNTERS, "a", Duration.ofSeconds(5)).map(LoadedStream::version),
        "written at least 8 s ago");
    assertEquals(Optional.of(5L), versionOf("a"));
    clock.advance(Duration.ofSeconds(3));
    assertEquals(Optional.empty(), versionOf("a"), "the policy's 10 s counted from before the write");
  }

  @Test
  void ofTwoEntriesOfOneVersionTheYoungerStays() {
    long earlier = cache.now();
    clock.advance(Duration.ofSeconds(8));
    cache.remember(COUNTERS, "a", at(5), cache.now());
    cache.remember(COUNTERS, "a", at(5), earlier);
    clock.advance(Duration.ofSeconds(3));
    assertEquals(Optional.of(5L), versionOf("a"), "remembered as of 3 s ago");
  }
}
