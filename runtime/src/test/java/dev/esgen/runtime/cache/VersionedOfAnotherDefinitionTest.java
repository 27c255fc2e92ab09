package dev.esgen.runtime.cache;

import static dev.esgen.runtime.testing.AsyncStoreFixture.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@code Versioned} one definition's repository returned, handed to the repository of another definition of
 * the same aggregate (old and new code side by side, as the state cache keeps them apart): the other code's
 * state is not what the new code folds, so the append must not fold on from it, nor remember or snapshot what
 * that gives. Both snapshot every second event after the creation's: the new code's append writes one.
 */
class VersionedOfAnotherDefinitionTest {

  @RegisterExtension
  static final AsyncStoreFixture ASYNC = new AsyncStoreFixture();

  private static final StateCachePolicy CACHE = StateCachePolicy.of(100, Duration.ofMinutes(5));

  @Test
  void anAppendOnAnotherDefinitionsVersionedFoldsWhatIsStoredWithThisDefinitionsCode() {
    DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withStateCache(CACHE));
    CounterRepository oldCode = new CounterRepository(store, SnapshotPolicy.every(2));
    AggregateDefinition<Counter, CounterId, CounterEvent> tenfold =
        CounterRepository.tenfoldDefinition(store.objectMapper(), SnapshotPolicy.every(2));
    CounterRepository newCode = new CounterRepository(store, tenfold);
    CounterId id = CounterId.random();
    oldCode.create(new CounterCreated(id, "c"));
    oldCode.append(id, 1, new Incremented(1, "old"));
    Versioned<Counter> seenByOldCode = oldCode.loadVersioned(id);
    assertEquals(1, seenByOldCode.state().value());

    Versioned<Counter> appended = newCode.append(seenByOldCode, List.of(new Incremented(1, "new")));

    assertEquals(20, appended.state().value(), "both increments folded by the new code");
    assertEquals(3, appended.version());
    CounterRepository freshNewCode = new CounterRepository(TestDynamo.store(), tenfold);
    assertEquals(appended, freshNewCode.loadVersioned(id, ReadOptions.strong()), "as stored, snapshot included");
    assertEquals(20, newCode.load(id, ReadOptions.cachedWithin(Duration.ofMinutes(1))).value(),
        "the new code remembers its own fold");
  }

  @Test
  void anAsyncAppendOnAnotherDefinitionsVersionedFoldsWhatIsStoredWithThisDefinitionsCode() {
    DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withStateCache(CACHE));
    CounterRepository oldCode = new CounterRepository(store, SnapshotPolicy.every(2));
    AggregateDefinition<Counter, CounterId, CounterEvent> tenfold =
        CounterRepository.tenfoldDefinition(store.objectMapper(), SnapshotPolicy.every(2));
    AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> newCode =
        new AsyncEventSourcedRepository<>(store.withAsyncClient(ASYNC.client()), tenfold) {};
    CounterId id = CounterId.random();
    oldCode.create(new CounterCreated(id, "c"));
    oldCode.append(id, 1, new Incremented(1, "old"));
    Versioned<Counter> seenByOldCode = oldCode.loadVersioned(id);

    Versioned<Counter> appended = await(newCode.append(seenByOldCode, List.of(new Incremented(1, "new"))));

    assertEquals(20, appended.state().value(), "both increments folded by the new code");
    CounterRepository freshNewCode = new CounterRepository(TestDynamo.store(), tenfold);
    assertEquals(appended, freshNewCode.loadVersioned(id, ReadOptions.strong()), "as stored, snapshot included");
  }
}
