package dev.esgen.runtime;

import static dev.esgen.runtime.testing.AsyncStoreFixture.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.AsyncCounterRepository;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A null where a repository needs a value is the caller's mistake: it is refused before any request with
 * a message naming the aggregate type and the argument, by the synchronous repository as an exception and
 * by the asynchronous one as a failed future, alike.
 */
class NullArgumentsTest {

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  private static final String NAME = "indexed-counter: ";
  private static final String NULL_DECIDED = "the decision returned null; return List.of() to append nothing";
  private static final CounterEvent ANOTHER = new CounterCreated(CounterId.random(), "d");
  private static final Function<Counter, List<CounterEvent>> NULL_DECISION = counter -> null;

  @Test
  void theSynchronousRepositoryNamesTheAggregateAndTheArgumentBeforeAnyRequest() {
    IndexedCounterRepository counters = new IndexedCounterRepository(TestDynamo.store(), LayoutKind.JOURNAL, 0);
    CounterId id = CounterId.random();
    Versioned<Counter> created = counters.create(new CounterCreated(id, "c"));
    TestDynamo.requests().reset();

    Map<String, Runnable> calls = new LinkedHashMap<>();
    calls.put("event 1 of 1 is null", () -> counters.create((CounterEvent) null));
    calls.put("event 2 of 2 is null", () -> counters.create(Arrays.asList(ANOTHER, null)));
    calls.put("the append options are null", () -> counters.create((AppendOptions) null, List.of()));
    calls.put("the events are null", () -> counters.append(id, 1, (List<CounterEvent>) null));
    calls.put("event 1 of 1 is null ", () -> counters.append(id, 1, (CounterEvent) null));
    calls.put("the loaded aggregate is null", () -> counters.append((Versioned<Counter>) null, List.of()));
    calls.put("the decide function is null", () -> counters.transact(id, (Function<Counter, List<CounterEvent>>) null));
    calls.put("the read options are null", () -> counters.load(id, null));
    calls.put("the ids are null", () -> counters.findAll(null));
    calls.put("the page request is null", () -> counters.listAll(null));
    calls.put("the page request is null ", () -> counters.listByName("c", null));
    calls.put("the page request is null  ", () -> counters.reindexAll(null));
    calls.forEach((message, call) ->
        assertEquals(NAME + message.strip(), assertThrows(NullPointerException.class, call::run).getMessage()));
    assertEquals(0, TestDynamo.requests().total());

    NullPointerException nullDecision =
        assertThrows(NullPointerException.class, () -> counters.transact(id, NULL_DECISION));
    assertEquals(NAME + NULL_DECIDED, nullDecision.getMessage());
    assertEquals(created.version(), counters.loadVersioned(id).version(), "nothing appended");
  }

  @Test
  void theAsynchronousRepositoryFailsItsFutureWithTheSameMessagesBeforeAnyRequest() {
    AsyncCounterRepository counters =
        new AsyncCounterRepository(async.store(StoreConfig.defaults()), LayoutKind.JOURNAL, 0);
    CounterId id = CounterId.random();
    AsyncStoreFixture.await(counters.create(new CounterCreated(id, "c")));
    int sentBefore = async.faults().started().size();

    Map<String, Supplier<CompletableFuture<?>>> calls = new LinkedHashMap<>();
    calls.put("event 1 of 1 is null", () -> counters.create((CounterEvent) null));
    calls.put("event 2 of 2 is null", () -> counters.create(Arrays.asList(ANOTHER, null)));
    calls.put("the append options are null", () -> counters.create((AppendOptions) null, List.of()));
    calls.put("the events are null", () -> counters.append(id, 1, (List<CounterEvent>) null));
    calls.put("the loaded aggregate is null", () -> counters.append((Versioned<Counter>) null, List.of()));
    calls.put("the decide function is null", () -> counters.transact(id, (Function<Counter, List<CounterEvent>>) null));
    calls.put("the read options are null", () -> counters.load(id, null));
    calls.put("the ids are null", () -> counters.findAll(null));
    calls.put("the page request is null", () -> counters.listAll(null));
    calls.put("the page request is null ", () -> counters.listByName("c", null));
    calls.forEach((message, call) -> assertEquals(NAME + message.strip(),
        assertInstanceOf(NullPointerException.class, failureOf(call.get())).getMessage()));
    assertEquals(sentBefore, async.faults().started().size());

    Throwable nullDecision = failureOf(counters.transact(id, NULL_DECISION));
    assertEquals(NAME + NULL_DECIDED, nullDecision.getMessage());
    assertEquals(1, AsyncStoreFixture.await(counters.loadVersioned(id)).version(), "nothing appended");
  }
}
