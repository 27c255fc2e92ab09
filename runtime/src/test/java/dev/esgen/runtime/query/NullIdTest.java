package dev.esgen.runtime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.testing.CounterLayout;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A null id given to a read is the caller's mistake: it is refused before any request, naming the
 * aggregate type, as the generated keys name it for every other use of an id.
 */
class NullIdTest {

  @ParameterizedTest
  @EnumSource(CounterLayout.class)
  void aReadOfANullIdIsRefusedNamingTheAggregateBeforeAnyRequest(CounterLayout layout) {
    CounterRepository counters = layout.repository();
    TestDynamo.requests().reset();

    assertRefused("counter: the id is null", () -> counters.load(null));
    assertRefused("counter: the id is null", () -> counters.findById(null));
    assertRefused("counter: the id is null", () -> counters.findVersioned(null));
    assertRefused("counter: an id is null", () -> counters.findAll(Arrays.asList(CounterId.random(), null)));
    assertEquals(0, TestDynamo.requests().total());
  }

  @Test
  void aNullAmongTheIdsOfFindAllGetsTheSameMessageWithTheStateCacheOn() {
    StoreConfig cached = StoreConfig.defaults().withStateCache(StateCachePolicy.of(10, Duration.ofMinutes(5)));
    CounterRepository counters = new CounterRepository(TestDynamo.store(cached));
    List<CounterId> ids = Arrays.asList(CounterId.random(), null);

    assertRefused("counter: an id is null", () -> counters.findAll(ids));
    ReadOptions cachedWithin = ReadOptions.cachedWithin(Duration.ofMinutes(1));
    assertRefused("counter: an id is null", () -> counters.findAll(ids, cachedWithin));
  }

  private static void assertRefused(String message, Executable read) {
    assertEquals(message, assertThrows(NullPointerException.class, read).getMessage());
  }
}
