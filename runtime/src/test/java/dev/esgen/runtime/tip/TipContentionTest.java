package dev.esgen.runtime.tip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.testing.Contention;
import dev.esgen.runtime.testing.TestDynamo;
import dev.esgen.runtime.testing.TipItems;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TipContentionTest {

  @Test
  void transactFromFourThreadsWhileCalvingStoresEveryCommandExactlyOnce() throws Exception {
    CounterRepository counters =
        new CounterRepository(TestDynamo.store(StoreConfig.defaults().withRetryPolicy(Contention.PATIENT)),
            new TipPolicy(32 * 1024, 7, true));
    CounterId id = CounterId.random();
    counters.create(new CounterCreated(id, "hot"));
    int threads = 4;
    int perThread = 20;
    Contention.run(threads, perThread,
        (thread, i) -> counters.transact(id, counter -> counter.increment(thread + "-" + i)));
    int total = threads * perThread;
    List<CounterEvent> stored = TipItems.events(counters, id.value());
    assertEquals(total + 1, stored.size());
    List<String> tags = stored.stream().skip(1).map(e -> ((Incremented) e).tag()).toList();
    Set<String> expected = new HashSet<>(Contention.tags(threads, perThread));
    assertEquals(expected, new HashSet<>(tags));
    // each thread's commands are stored in the order the thread issued them
    for (int t = 0; t < threads; t++) {
      String prefix = t + "-";
      List<String> mine = tags.stream().filter(tag -> tag.startsWith(prefix)).toList();
      assertEquals(expected.stream().filter(tag -> tag.startsWith(prefix))
          .sorted((a, b) -> Integer.compare(Integer.parseInt(a.substring(2)), Integer.parseInt(b.substring(2))))
          .toList(), mine);
    }
    assertTrue(TipItems.batches(id.value()) >= 10);
    assertEquals(total, counters.load(id).value());
  }
}
