package dev.esgen.runtime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code shards} is fixed once data is written: after a change, a journal stream's head row stays in the
 * partition the old count put it in. A load looks in the new one and finds nothing (documented); a listing
 * still meets the old row and must say what happened rather than show a stream nothing else finds, or fail
 * for the events it looks for in the wrong partition.
 */
class ShardCountChangeTest {

  private final String name = "shards-" + UUID.randomUUID().toString().substring(0, 8);

  private CounterRepository withShards(int shards) {
    // A store each, as two deployments would have.
    return new CounterRepository(TestDynamo.store(),
        CounterRepository.builder(name, TestDynamo.store().objectMapper(), SnapshotPolicy.every(100))
            .shards(shards)
            .build());
  }

  @Test
  void aListingAfterTheShardCountChangedSaysSoInsteadOfShowingAStreamNothingElseFinds() {
    CounterRepository before = withShards(4);
    CounterId moved = idThatMoves();
    before.create(new CounterCreated(moved, "m"));
    before.append(moved, 1, new Incremented(5));
    CounterRepository after = withShards(8);

    CorruptStreamException e = assertThrows(CorruptStreamException.class,
        () -> after.listAll(PageRequest.first(100)));

    String stored = new JournalKeys(name, 4).partitionKey(moved.value());
    String expected = new JournalKeys(name, 8).partitionKey(moved.value());
    assertEquals(name + " " + moved.value() + " is corrupt: its head row is in partition " + stored
        + ", but with shards = 8 it belongs in " + expected + ": the shard count changed after the stream was"
        + " written. It is fixed once data is written: deploy with the count the data was written with",
        e.getMessage());
    assertTrue(after.findById(moved).isEmpty(), "a load looks in the new partition");
    assertEquals(1, before.listAll(PageRequest.first(100)).items().size(), "the old count lists it as before");
  }

  /** An id whose stream the 8-shard definition looks for in another partition than 4 shards put it in. */
  private CounterId idThatMoves() {
    while (true) {
      CounterId id = CounterId.random();
      if (!new JournalKeys(name, 4).partitionKey(id.value()).equals(new JournalKeys(name, 8).partitionKey(id.value()))) {
        return id;
      }
    }
  }
}
