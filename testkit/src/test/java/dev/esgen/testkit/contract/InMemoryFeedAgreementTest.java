package dev.esgen.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.ProjectionFailedException;
import dev.esgen.runtime.feed.ChangeFeed;
import dev.esgen.runtime.feed.DeliveryFailure;
import dev.esgen.runtime.feed.FeedListener;
import dev.esgen.runtime.feed.Projection;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.test.DynamoDbLocal;
import dev.esgen.testkit.junit.Backend;
import dev.esgen.testkit.junit.EsgenTestExtension;
import dev.esgen.testkit.memory.InMemoryEventStore;
import dev.esgen.testkit.memory.InMemoryFeed;
import dev.esgen.testkit.memory.StoredEvent;
import dev.esgen.testkit.meter.MeterEvent;
import dev.esgen.testkit.meter.MeterEvent.ReadingTaken;
import dev.esgen.testkit.meter.MeterId;
import dev.esgen.testkit.meter.MeterRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The in-memory feed against the change feed on DynamoDB Local: one stream stored alike in both stores
 * (the in-memory one seeded, DynamoDB Local's items put as older code wrote them), one projection, and the
 * same events must be handed over, the same position stored and the same failure reported on both.
 */
class InMemoryFeedAgreementTest {

  @RegisterExtension
  static final EsgenTestExtension ESGEN = EsgenTestExtension.create().withBackend(Backend.DYNAMODB_LOCAL);

  /** One attempt, so that each feed reports one failure and gives up. */
  private static final RetryPolicy ONCE = new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1));

  /** A hang guard only: the in-memory feed delivers these few events at once. */
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final EventStore dynamoStore;
  private final MeterRepository dynamoMeters;
  private final StoreInternals dynamo;
  private final InMemoryEventStore memory = InMemoryEventStore.create(StoreConfig.defaults()
      .withClock(Clock.fixed(Instant.parse(DynamoDbLocalStoredFormsTest.SEEDED_AT), ZoneOffset.UTC)));
  private final MeterRepository memoryMeters = new MeterRepository(memory);

  InMemoryFeedAgreementTest(EventStore store) {
    this.dynamoStore = store;
    this.dynamoMeters = new MeterRepository(store);
    this.dynamo = StoreAccess.internals(store).orElseThrow();
  }

  /**
   * What a projection was handed of one stream, the position its feed stored, where and why the feed gave
   * the stream up (0 and nulls when it did not) and the seq_nr of every failure its listener heard of.
   */
  record Outcome(List<RecordedEvent<MeterEvent>> taken, long position, long failedAt, String failedType,
      String cause, List<Long> reported) {}

  @Test
  void everyStoredFormIsHandedOverAlike() throws Exception {
    MeterId id = MeterId.random();
    StoredEvent[] history = {
        new StoredEvent("installed", 1, "{\"id\":{\"value\":\"" + id.value() + "\"},\"site\":\"cellar\"}"),
        new StoredEvent("reading-taken", 1, "{\"kwh\":3}"),
        new StoredEvent("reading-taken", 2, "{\"wattHours\":500}"),
        new StoredEvent("read", 1, "{\"kwh\":1}"),
        new StoredEvent("calibrated", 1, "{\"offset\":2}")};

    Outcome onDynamoDb = onDynamoDb(id, event -> false, history);

    assertEquals(List.of(1L, 2L, 3L, 4L), onDynamoDb.taken().stream().map(RecordedEvent::seqNr).toList());
    assertEquals(new Outcome(onDynamoDb.taken(), 5, 0, null, null, List.of()), onDynamoDb);
    assertEquals(onDynamoDb, inMemory(id, event -> false, history));
  }

  /** The events before the one that does not read are handed over; the stream stops at that one. */
  @Test
  void anEventThatDoesNotReadStopsItsStreamAfterTheEventsBeforeIt() throws Exception {
    MeterId id = MeterId.random();
    StoredEvent[] history = {
        new StoredEvent("installed", 1, "{\"id\":{\"value\":\"" + id.value() + "\"},\"site\":\"attic\"}"),
        new StoredEvent("reading-taken", 1, "{\"kwh\":3}"),
        new StoredEvent("reading-taken", 3, "{\"joules\":9}"),
        new StoredEvent("reading-taken", 2, "{\"wattHours\":500}")};

    Outcome onDynamoDb = onDynamoDb(id, event -> false, history);

    assertEquals(List.of(1L, 2L), onDynamoDb.taken().stream().map(RecordedEvent::seqNr).toList());
    assertEquals(new Outcome(onDynamoDb.taken(), 2, 3, "reading-taken", "EventDecodingException", List.of(3L)),
        onDynamoDb);
    assertEquals(onDynamoDb, inMemory(id, event -> false, history));
  }

  /** A dropped stored event is taken like any other: the position passes it before the next one fails. */
  @Test
  void aHandlerFailingRightAfterADroppedEventStopsAtItsOwnEvent() throws Exception {
    MeterId id = MeterId.random();
    StoredEvent[] history = {
        new StoredEvent("installed", 1, "{\"id\":{\"value\":\"" + id.value() + "\"},\"site\":\"attic\"}"),
        new StoredEvent("calibrated", 1, "{\"offset\":2}"),
        new StoredEvent("reading-taken", 1, "{\"kwh\":3}")};
    Predicate<RecordedEvent<MeterEvent>> readings = event -> event.event() instanceof ReadingTaken;

    Outcome onDynamoDb = onDynamoDb(id, readings, history);

    assertEquals(List.of(1L), onDynamoDb.taken().stream().map(RecordedEvent::seqNr).toList());
    assertEquals(new Outcome(onDynamoDb.taken(), 2, 3, "reading-taken", "IllegalStateException", List.of(3L)),
        onDynamoDb);
    assertEquals(onDynamoDb, inMemory(id, readings, history));
  }

  /** A failure names the event the projection was handed: its current type name, not the alias it was stored under. */
  @Test
  void aHandlerFailingOnAnEventStoredUnderAnAliasNamesItsCurrentType() throws Exception {
    MeterId id = MeterId.random();
    StoredEvent[] history = {
        new StoredEvent("installed", 1, "{\"id\":{\"value\":\"" + id.value() + "\"},\"site\":\"attic\"}"),
        new StoredEvent("read", 1, "{\"kwh\":1}")};
    Predicate<RecordedEvent<MeterEvent>> readings = event -> event.event() instanceof ReadingTaken;

    Outcome onDynamoDb = onDynamoDb(id, readings, history);

    assertEquals(new Outcome(onDynamoDb.taken(), 1, 2, "reading-taken", "IllegalStateException", List.of(2L)),
        onDynamoDb);
    assertEquals(onDynamoDb, inMemory(id, readings, history));
  }

  /** {@code history} stored on DynamoDB Local and replayed by a {@link ChangeFeed}. */
  private Outcome onDynamoDb(MeterId id, Predicate<RecordedEvent<MeterEvent>> failing, StoredEvent... history) {
    DynamoDbLocalStoredFormsTest.seed(dynamo.client(), dynamo.config(), dynamoMeters, id, history);
    try (DynamoDbClient client = DynamoDbLocal.shared().newClient()) {
      new TableProvisioner(client, dynamo.config()).enableChangeFeed();
    }
    Recorder recorder = new Recorder(failing);
    ChangeFeed feed = ChangeFeed.builder(dynamoStore)
        .projection("agreed", dynamoMeters.definition(), recorder)
        .retryPolicy(ONCE)
        .listener(recorder)
        .build();
    ProjectionFailedException failed = null;
    try {
      feed.replay("agreed");
    } catch (ProjectionFailedException e) {
      failed = e;
    }
    return recorder.outcome(id, feed.position("agreed", dynamoMeters.definition(), id), failed);
  }

  /** {@code history} seeded into the in-memory store and delivered by an {@link InMemoryFeed}. */
  private Outcome inMemory(MeterId id, Predicate<RecordedEvent<MeterEvent>> failing, StoredEvent... history)
      throws Exception {
    memory.seed(memoryMeters.definition(), id, history);
    Recorder recorder = new Recorder(failing);
    try (InMemoryFeed feed = InMemoryFeed.builder(memory)
        .projection("agreed", memoryMeters.definition(), recorder)
        .retryPolicy(ONCE)
        .listener(recorder)
        .start()) {
      ProjectionFailedException failed = null;
      try {
        feed.awaitCaughtUp(WAIT);
      } catch (ProjectionFailedException e) {
        failed = e;
      }
      return recorder.outcome(id, feed.position("agreed", memoryMeters.definition(), id), failed);
    }
  }

  /** A projection that records what it takes and fails on the events {@code failing} picks. */
  private static final class Recorder implements Projection<MeterEvent>, FeedListener {
    private final Predicate<RecordedEvent<MeterEvent>> failing;
    private final List<RecordedEvent<MeterEvent>> taken = new CopyOnWriteArrayList<>();
    private final List<DeliveryFailure> reported = new CopyOnWriteArrayList<>();

    Recorder(Predicate<RecordedEvent<MeterEvent>> failing) {
      this.failing = failing;
    }

    @Override
    public void handle(RecordedEvent<MeterEvent> event) {
      if (failing.test(event)) {
        throw new IllegalStateException("read model refuses " + event.seqNr());
      }
      taken.add(event);
    }

    @Override
    public void onDeliveryFailure(DeliveryFailure failure) {
      reported.add(failure);
    }

    /**
     * {@code failure} and what it suppressed, at any depth: a replay's segments and a page's streams add
     * their failures to the first one as suppressed, so one stream's may sit two levels down.
     */
    private static Stream<Throwable> withSuppressed(Throwable failure) {
      return Stream.concat(Stream.of(failure),
          Arrays.stream(failure.getSuppressed()).flatMap(Recorder::withSuppressed));
    }

    /** What became of stream {@code id}: the store's tables are the class's, shared with other tests' streams. */
    Outcome outcome(MeterId id, long position, ProjectionFailedException failed) {
      ProjectionFailedException stream = failed == null ? null : withSuppressed(failed)
          .filter(ProjectionFailedException.class::isInstance)
          .map(ProjectionFailedException.class::cast)
          .filter(f -> f.aggregateId().equals(id.value()))
          .findFirst()
          .orElse(null);
      return new Outcome(taken.stream().filter(e -> e.aggregateId().equals(id.value())).toList(), position,
          stream == null ? 0 : stream.seqNr(), stream == null ? null : stream.eventType(),
          stream == null ? null : stream.getCause().getClass().getSimpleName(),
          reported.stream().filter(f -> f.aggregateId().equals(id.value())).map(DeliveryFailure::seqNr).toList());
    }
  }
}
