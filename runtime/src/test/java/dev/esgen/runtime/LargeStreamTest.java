package dev.esgen.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class LargeStreamTest {

  @Test
  void eventsPastOneQueryPageAllLoadAndTheNextAppendLandsAfterThem() {
    CounterRepository counters = new CounterRepository(TestDynamo.store(), SnapshotPolicy.every(1_000_000));
    CounterId id = CounterId.random();
    Versioned<Counter> current = counters.create(new CounterCreated(id, "big"));
    String eightKb = "x".repeat(8 * 1024);
    for (int batch = 0; batch < 4; batch++) {
      List<CounterEvent> notes = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        notes.add(new Noted(eightKb));
      }
      current = counters.append(id, current.version(), notes);
    }
    List<Map<String, AttributeValue>> before = TestDynamo.streamItems("journal", "counter", id.value());
    assertEquals(201, before.size());

    TestDynamo.requests().reset();
    Versioned<Counter> loaded = counters.findVersioned(id).orElseThrow();
    assertEquals(200, loaded.state().notes());
    assertEquals(201, loaded.seqNr());
    // 1.6 MB of events cannot come back in one 1 MB Query page.
    assertTrue(TestDynamo.requests().of("Query") >= 2, TestDynamo.requests().snapshot().toString());

    Versioned<Counter> after = counters.append(id, loaded.version(), new Incremented(7));
    assertEquals(202, after.seqNr());
    assertEquals(7, counters.load(id).value());
    List<Map<String, AttributeValue>> journal = TestDynamo.streamItems("journal", "counter", id.value());
    assertEquals(202, journal.size());
    assertEquals(before, journal.subList(0, 201));
    assertEquals(202, TestDynamo.seqNr(journal.get(201)));
  }
}
