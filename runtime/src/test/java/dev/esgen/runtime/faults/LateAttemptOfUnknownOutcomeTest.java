package dev.esgen.runtime.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.counter.Counter;
import dev.esgen.runtime.counter.CounterCreated;
import dev.esgen.runtime.counter.CounterEvent;
import dev.esgen.runtime.counter.CounterId;
import dev.esgen.runtime.counter.CounterRepository;
import dev.esgen.runtime.counter.Incremented;
import dev.esgen.runtime.counter.IndexedCounterRepository;
import dev.esgen.runtime.counter.Noted;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.EventSourcedRepository;
import dev.esgen.runtime.repository.Versioned;
import dev.esgen.runtime.testing.AsyncDynamo;
import dev.esgen.runtime.testing.TestDynamo;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/**
 * An attempt whose outcome was unknown (it timed out) may still reach DynamoDB after esgen gave up on the
 * append: DynamoDB Local, for one, goes on with a request its client stopped waiting for. No answer sent to
 * a later attempt settles it unless the earlier attempt would meet that refusal too. After a transaction
 * conflict (the refusal DynamoDB Local gives while the earlier attempt holds the items) or a unique value
 * found taken (its holder may give it up first), the append ends with {@link AppendOutcomeUnknownException},
 * never with a "nothing written" exception; the late attempt then lands, and repeating the command with its
 * id answers with what it stored instead of storing it twice.
 */
class LateAttemptOfUnknownOutcomeTest {

  private static final RetryPolicy FOUR_ATTEMPTS =
      new RetryPolicy(4, Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofSeconds(10));

  /** Remembers the first transaction it sees: the attempt that times out here and reaches DynamoDB late. */
  private static final class FirstTransaction implements ExecutionInterceptor {
    private final AtomicReference<TransactWriteItemsRequest> first = new AtomicReference<>();

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
      if (context.request() instanceof TransactWriteItemsRequest transaction) {
        first.compareAndSet(null, transaction);
      }
    }

    /** DynamoDB carries out the attempt that timed out: the same request, with the same token. */
    void deliverLate() {
      TestDynamo.client().transactWriteItems(first.get().toBuilder()
          .overrideConfiguration((AwsRequestOverrideConfiguration) null).build());
    }
  }

  private final FirstTransaction lateAttempt = new FirstTransaction();
  private final FaultInjector faults = FaultInjector.builder(1).build();

  /** A store whose client keeps the first transaction for {@link FirstTransaction#deliverLate} and meets the faults. */
  private DynamoDbEventStore faultyStore() {
    return DynamoDbEventStore.create(TestDynamo.clientWith(lateAttempt, faults), config());
  }

  @ParameterizedTest
  @EnumSource(value = Layout.class, names = {"JOURNAL", "TIP"})
  void transactionConflictsAfterATimedOutAttemptLeaveTheOutcomeUnknown(Layout layout) {
    CounterRepository clean = layout.counters(TestDynamo.store());
    CounterRepository faulty = layout.counters(faultyStore());
    CounterId id = CounterId.random();
    clean.create(new CounterCreated(id, "c"));
    faults.enqueue(TransactWriteItemsRequest.class, Fault.TIMEOUT_BEFORE_SEND,
        Fault.TRANSACTION_CONFLICT, Fault.TRANSACTION_CONFLICT, Fault.TRANSACTION_CONFLICT);

    AppendOutcomeUnknownException unknown = assertThrows(AppendOutcomeUnknownException.class,
        () -> faulty.transact(id, "c-1", c -> c.increment("mine")));

    assertEquals(1, unknown.expectedVersion());
    assertTheLateAttemptIsStoredOnceAndTheRepeatAnswersWithIt(clean, id);
  }

  @ParameterizedTest
  @EnumSource(value = Layout.class, names = {"JOURNAL", "TIP"})
  void asyncTransactionConflictsAfterATimedOutAttemptLeaveTheOutcomeUnknown(Layout layout) {
    CounterRepository clean = layout.counters(TestDynamo.store());
    CounterId id = CounterId.random();
    clean.create(new CounterCreated(id, "c"));
    faults.enqueue(TransactWriteItemsRequest.class, Fault.TIMEOUT_BEFORE_SEND,
        Fault.TRANSACTION_CONFLICT, Fault.TRANSACTION_CONFLICT, Fault.TRANSACTION_CONFLICT);

    try (DynamoDbAsyncClient client = AsyncDynamo.client(lateAttempt, faults)) {
      AsyncCounters faulty = new AsyncCounters(DynamoDbAsyncEventStore.create(client, config()), clean);
      assertInstanceOf(AppendOutcomeUnknownException.class,
          AsyncFaultScenariosTest.failureOf(faulty.transact(id, "c-1", c -> c.increment("mine"))));
    }

    assertTheLateAttemptIsStoredOnceAndTheRepeatAnswersWithIt(clean, id);
  }

  @ParameterizedTest
  @EnumSource(value = Layout.class, names = {"JOURNAL", "TIP"})
  void aUniqueValueFoundTakenAfterATimedOutAttemptLeavesTheOutcomeUnknown(Layout layout) {
    IndexedCounterRepository clean = layout.indexed(TestDynamo.store());
    IndexedCounterRepository faulty = layout.indexed(faultyStore());
    CounterId mine = CounterId.random();
    CounterId holder = CounterId.random();
    String note = "note-" + mine.value();
    clean.create(new CounterCreated(mine, "c"));
    clean.create(List.of(new CounterCreated(holder, "c"), new Noted(note)));
    // The resend is cancelled while the earlier attempt holds the items; the fresh token's finds the value taken.
    faults.enqueue(TransactWriteItemsRequest.class, Fault.TIMEOUT_BEFORE_SEND, Fault.TRANSACTION_CONFLICT);

    assertThrows(AppendOutcomeUnknownException.class,
        () -> faulty.transact(mine, "c-1", c -> List.of(new Noted(note))));

    clean.transact(holder, c -> List.of(new Noted("another-" + holder.value())));   // the holder gives the value up
    lateAttempt.deliverLate();

    assertEquals(mine, clean.loadByNote(note).id());
    assertEquals(1, StoredStreams.read(clean.definition(), mine.value()).count(new Noted(note)));
  }

  private static StoreConfig config() {
    return StoreConfig.defaults().withRetryPolicy(FOUR_ATTEMPTS);
  }

  private void assertTheLateAttemptIsStoredOnceAndTheRepeatAnswersWithIt(CounterRepository clean, CounterId id) {
    lateAttempt.deliverLate();

    Versioned<Counter> repeated = clean.transact(id, "c-1", c -> c.increment("mine"));

    assertEquals(2, repeated.version());
    assertEquals(1, StoredStreams.read(clean.definition(), id.value()).count(new Incremented(1, "mine")));
  }

  /** The asynchronous repository of the counters {@code twin} stores. */
  private static final class AsyncCounters extends AsyncEventSourcedRepository<Counter, CounterId, CounterEvent> {
    AsyncCounters(DynamoDbAsyncEventStore store, EventSourcedRepository<Counter, CounterId, CounterEvent> twin) {
      super(store, twin.definition());
    }
  }
}
