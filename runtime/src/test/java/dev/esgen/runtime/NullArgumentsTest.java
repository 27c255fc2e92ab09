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
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.repository.AppendOptions;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncStoreFixture;
import dev.esgen.runtime.testing.RecordingListener;
import dev.esgen.runtime.testing.TestDynamo;
import java.util.Arrays;
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
 * by the asynchronous one as a failed future, alike, and the store's listener hears of each call.
 */
class NullArgumentsTest {

  @RegisterExtension
  final AsyncStoreFixture async = new AsyncStoreFixture();

  private static final String NAME = "indexed-counter: ";
  private static final String NULL_DECIDED = "the decision returned null; return List.of() to append nothing";
  private static final CounterEvent ANOTHER = new CounterCreated(CounterId.random(), "d");
  private static final Function<Counter, List<CounterEvent>> NULL_DECISION = counter -> null;
  private static final Function<Counter, List<CounterEvent>> NO_DECIDE = null;

  @Test
  void theSynchronousRepositoryNamesTheAggregateAndTheArgumentBeforeAnyRequest() {
    RecordingListener heard = new RecordingListener();
    IndexedCounterRepository counters = new IndexedCounterRepository(
        TestDynamo.store(StoreConfig.defaults().withListener(heard)), LayoutKind.JOURNAL, 0);
    CounterId id = CounterId.random();
    Versioned<Counter> created = counters.create(new CounterCreated(id, "c"));
    TestDynamo.requests().reset();

    List<Map.Entry<String, Runnable>> calls = List.of(
        Map.entry("event 1 of 1 is null", () -> counters.create((CounterEvent) null)),
        Map.entry("event 2 of 2 is null", () -> counters.create(Arrays.asList(ANOTHER, null))),
        Map.entry("the append options are null", () -> counters.create((AppendOptions) null, List.of())),
        Map.entry("the events are null", () -> counters.append(id, 1, (List<CounterEvent>) null)),
        Map.entry("the events are null", () -> counters.append(id, 1, (AppendOptions) null, null)),
        Map.entry("event 1 of 1 is null", () -> counters.append(id, 1, (CounterEvent) null)),
        Map.entry("the loaded aggregate is null", () -> counters.append((Versioned<Counter>) null, List.of())),
        Map.entry("the decide function is null", () -> counters.transact(id, NO_DECIDE)),
        Map.entry("the read options are null", () -> counters.load(id, null)),
        Map.entry("the ids are null", () -> counters.findAll(null)),
        Map.entry("the page request is null", () -> counters.listAll(null)),
        Map.entry("the page request is null", () -> counters.listByName("c", null)),
        Map.entry("the page request is null", () -> counters.reindexAll(null)));
    int heardBefore = heard.operations().size();
    for (Map.Entry<String, Runnable> call : calls) {
      NullPointerException refused = assertThrows(NullPointerException.class, call.getValue()::run);
      assertEquals(NAME + call.getKey(), refused.getMessage());
    }
    assertEquals(0, TestDynamo.requests().total());
    assertEveryCallWasHeardAsAFailure(heard.operations().subList(heardBefore, heard.operations().size()), calls);

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

    List<Map.Entry<String, Supplier<CompletableFuture<?>>>> calls = List.of(
        Map.entry("event 1 of 1 is null", () -> counters.create((CounterEvent) null)),
        Map.entry("event 2 of 2 is null", () -> counters.create(Arrays.asList(ANOTHER, null))),
        Map.entry("the append options are null", () -> counters.create((AppendOptions) null, List.of())),
        Map.entry("the events are null", () -> counters.append(id, 1, (List<CounterEvent>) null)),
        Map.entry("the events are null", () -> counters.append(id, 1, (AppendOptions) null, null)),
        Map.entry("event 1 of 1 is null", () -> counters.append(id, 1, (CounterEvent) null)),
        Map.entry("the loaded aggregate is null", () -> counters.append((Versioned<Counter>) null, List.of())),
        Map.entry("the decide function is null", () -> counters.transact(id, NO_DECIDE)),
        Map.entry("the read options are null", () -> counters.load(id, null)),
        Map.entry("the ids are null", () -> counters.findAll(null)),
        Map.entry("the page request is null", () -> counters.listAll(null)),
        Map.entry("the page request is null", () -> counters.listByName("c", null)));
    int heardBefore = async.operations().size();
    for (Map.Entry<String, Supplier<CompletableFuture<?>>> call : calls) {
      Throwable refused = failureOf(call.getValue().get());
      assertEquals(NAME + call.getKey(), assertInstanceOf(NullPointerException.class, refused).getMessage());
    }
    assertEquals(sentBefore, async.faults().started().size());
    assertEveryCallWasHeardAsAFailure(async.operations().subList(heardBefore, async.operations().size()), calls);

    Throwable nullDecision = failureOf(counters.transact(id, NULL_DECISION));
    assertEquals(NAME + NULL_DECIDED, nullDecision.getMessage());
    assertEquals(1, AsyncStoreFixture.await(counters.loadVersioned(id)).version(), "nothing appended");
  }

  /** The listener heard each refused call as an operation that failed with its NullPointerException. */
  private static void assertEveryCallWasHeardAsAFailure(List<OperationMetrics> heard, List<?> calls) {
    assertEquals(calls.size(), heard.size(), "one operation per refused call: " + heard);
    for (OperationMetrics operation : heard) {
      assertInstanceOf(NullPointerException.class, operation.failure().orElseThrow(), operation.operation());
      assertEquals(0, operation.requests(), operation.operation());
    }
  }
}
