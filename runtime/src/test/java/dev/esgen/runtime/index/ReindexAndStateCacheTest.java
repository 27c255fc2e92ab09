package dev.esgen.runtime.index;

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
import dev.esgen.runtime.counter.NamePrefixColumn;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A reindex writes index values onto the journal's head row, which the state cache's remembered stream
 * does not know of: an append deciding on the remembered stream would measure the head row without them.
 * Near DynamoDB's 400 KB it would send a snapshot that no longer fits, and DynamoDB would refuse the whole
 * append, where esgen skips such a snapshot and stores the events.
 */
class ReindexAndStateCacheTest {

  private final RecordingListener heard = new RecordingListener();
  private final DynamoDbEventStore store = TestDynamo.store(StoreConfig.defaults().withListener(heard)
      .withStateCache(StateCachePolicy.of(100, Duration.ofMinutes(5))));
  private final String name = "reindex-cache-" + UUID.randomUUID().toString().substring(0, 8);
  // A snapshot with every append; the indexed one has a slot of about 1 KB, the first 1,000 characters of
  // the counter's name, which the plain one lacks (its streams were stored before the column existed).
  private final AggregateDefinition<Counter, CounterId, CounterEvent> indexedDefinition =
      CounterRepository.builder(name, store.objectMapper(), SnapshotPolicy.every(1))
          .indexColumns(new NamePrefixColumn())
          .build();
  private final CounterRepository plain = new CounterRepository(store,
      CounterRepository.builder(name, store.objectMapper(), SnapshotPolicy.every(1)).build());
  private final CounterRepository indexed = new CounterRepository(store, indexedDefinition);

  @Test
  void anAppendAfterAReindexMeasuresTheHeadRowWithItsNewIndexValues() {
    // A probe with the slot from its creation, whose creating snapshot does not fit: its size tells the
    // name that leaves a head row with the slot 30 bytes under the limit.
    CounterId probe = CounterId.random();
    int probeName = 408_800;
    indexed.create(new CounterCreated(probe, "x".repeat(probeName)));
    assertEquals(List.of(1L), seqNrs(skipped(probe)));
    int name = (int) (probeName - (skipped(probe).get(0).sizeBytes() - (ItemTooLargeException.LIMIT_BYTES - 30)));

    // Stored before the column existed, then reindexed: the head row gains the slot and fits, 30 bytes to
    // spare. A note of 64 characters, which the state keeps, makes the next snapshot too large for it.
    CounterId id = CounterId.random();
    plain.create(new CounterCreated(id, "x".repeat(name)));
    indexed.reindex(id);
    Versioned<Counter> noted = indexed.transact(id, counter -> List.of(new Noted("n".repeat(64))));

    assertEquals(2, noted.version());
    assertEquals(List.of(2L), seqNrs(skipped(id)),
        "the snapshot that no longer fits beside the index values is skipped, the note stored");
    assertEquals(noted, indexed.loadVersioned(id));
  }

  private static List<Long> seqNrs(List<SkippedSnapshot> skipped) {
    return skipped.stream().map(SkippedSnapshot::seqNr).toList();
  }

  private List<SkippedSnapshot> skipped(CounterId id) {
    return heard.skippedSnapshots().stream().filter(s -> s.aggregateId().equals(id.value())).toList();
  }
}
