package dev.esgen.runtime.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * listAll's order within a shard, as its Javadoc states it: the tip lists by id string; the journal by
 * head-row sort key, where "{id}!" sorts before "{id}" because '!' compares with the '-' that follows the id,
 * and so do "{id}-" and "{id}-0", whose "-" and "-0" compare with the "-" and zeros of the seq_nr.
 */
class ListAllOrderTest {

  private final DynamoDbEventStore store = TestDynamo.store();

  @ParameterizedTest
  @EnumSource(LayoutKind.class)
  void withinAShardTheOrderIsTheOneTheJavadocStates(LayoutKind layout) throws Exception {
    String name = "order-" + UUID.randomUUID().toString().substring(0, 8);
    CounterRepository counters = new CounterRepository(store, CounterRepository.builder(
        name, store.objectMapper(), SnapshotPolicy.every(100), layout).shards(1).build());
    String base = "id-" + UUID.randomUUID();
    for (String id : List.of(base + "!", base, base + "0", base + "-", base + "-0", base + "-1")) {
      counters.create(new CounterCreated(new CounterId(id), "c"));
    }
    if (layout == LayoutKind.TIP) {
      Thread.sleep(500);   // the listing index is eventually consistent
    }
    List<String> listed = counters.listAll(PageRequest.first(10)).items().stream().map(c -> c.id().value()).toList();
    // The tip's listing index is ordered by aid; the journal's head rows by sort key, as documented.
    assertEquals(layout == LayoutKind.TIP
        ? List.of(base, base + "!", base + "-", base + "-0", base + "-1", base + "0")
        : List.of(base + "!", base + "-", base + "-0", base, base + "-1", base + "0"), listed);
  }
}
