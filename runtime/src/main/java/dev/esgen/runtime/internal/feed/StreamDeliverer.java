package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.feed.GapRead;
import dev.esgen.runtime.feed.TransactionalProjection;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.internal.storage.EventPage;
import java.util.List;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Delivers one {@link Delivery}: the events after the projection's position up to the last one offered,
 * in seq_nr order, each once. Offered events are decoded with the subscription's definition; events
 * the batch lacks are read from the store with the layout's consistent {@code readEvents}, at most
 * {@value #GAP_PAGE} at a time, and reported as a {@link GapRead}.
 *
 * <p>An at-least-once projection takes its events one after the other; then its position is advanced
 * once, to the last event it took. A transactional one commits each event's writes with the position,
 * conditioned on the position it read; an event without writes moves the position with the next commit.
 * Should a commit find the position moved (another delivery took the event), the delivery goes on from
 * the position stored. On the first failure the delivery stops, records how far it got, and reports
 * where it stopped; the caller decides whether to try again.
 *
 * <pre>{@code
 * StreamDeliverer.Outcome outcome = deliverer.deliver(delivery, positions.read(delivery.key()));
 * outcome.stuck().ifPresent(stuck -> retryLater(delivery, stuck));
 * }</pre>
 */
public final class StreamDeliverer {

  /** How many events a gap read asks the store for at once: the page size of event history reads. */
  static final int GAP_PAGE = 100;

  /** Where a delivery stopped: the event it could not deliver, and why. */
  public record Stuck(long seqNr, String eventType, Exception cause) {}

  /**
   * What a delivery did.
   *
   * @param delivered how many events the projection took
   * @param stuck where it stopped, when it did not reach the last offered event
   */
  public record Outcome(int delivered, Optional<Stuck> stuck) {}

  private final StoreInternals store;
  private final PositionStore positions;
  private final FeedReporter reporter;

  public StreamDeliverer(StoreInternals store, PositionStore positions, FeedReporter reporter) {
    this.store = Objects.requireNonNull(store, "store");
    this.positions = Objects.requireNonNull(positions, "positions");
    this.reporter = Objects.requireNonNull(reporter, "reporter");
  }

  /** Delivers {@code delivery} to its projection, which has taken the stream's events up to {@code position}. */
  public Outcome deliver(Delivery delivery, long position) {
    return new Run<>(delivery.subscription(), delivery.aggregateId(), delivery.offered(), position).deliver();
  }

  /** One delivery's progress: what the positions table holds and what the projection has taken. */
  private final class Run<A, I, E> {
    private final Subscription<A, I, E> subscription;
    private final AggregateDefinition<A, I, E> definition;
    private final String aggregateId;
    private final NavigableMap<Long, StoredEvent> offered;
    private final PositionKey key;
    private long stored;
    private long taken;
    private int delivered;
    private String nextType;

    Run(Subscription<A, I, E> subscription, String aggregateId, NavigableMap<Long, StoredEvent> offered,
        long position) {
      this.subscription = subscription;
      this.definition = subscription.definition();
      this.aggregateId = aggregateId;
      this.offered = offered;
      this.key = subscription.positionIn(aggregateId);
      this.stored = position;
      this.taken = position;
    }

    Outcome deliver() {
      Exception failure = null;
      try {
        long target = offered.lastKey();
        while (taken < target) {
          long next = taken + 1;
          StoredEvent event = offered.get(next);
          if (event != null) {
            nextType = event.eventType();
            take(event.decode(definition, aggregateId));
          } else {
            readGap(next, offered.ceilingKey(next) - 1);
          }
        }
      } catch (Exception e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        failure = e;
      }
      // What was taken is recorded also when a later event failed, so that a redelivery starts after it.
      try {
        record();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
      return new Outcome(delivered, failure == null
          ? Optional.empty()
          : Optional.of(new Stuck(taken + 1, nextType, failure)));
    }

    /** Events {@code from .. to}, which the batch lacks, page by page from the store. */
    private void readGap(long from, long to) throws Exception {
      reporter.gapRead(new GapRead(subscription.projection(), definition.name(), aggregateId, from, to));
      I id = definition.keys().parseId(aggregateId);
      while (taken < to) {
        long first = taken + 1;
        long last = Math.min(to, taken + GAP_PAGE);
        nextType = null;
        EventPage<E> page = store.layoutFor(definition).readEvents(definition, id, first, last)
            .orElseThrow(() -> new CorruptStreamException(definition.name(), aggregateId,
                "the change feed saw event " + (to + 1) + ", but the store holds no such stream"));
        if (page.events().size() != last - first + 1) {
          throw new CorruptStreamException(definition.name(), aggregateId, "the change feed saw event " + (to + 1)
              + ", but the stored stream ends at event " + page.lastSeqNr());
        }
        for (RecordedEvent<E> event : page.events()) {
          nextType = event.eventType();
          take(event);
        }
      }
    }

    private void take(RecordedEvent<E> event) throws Exception {
      if (event.seqNr() <= taken) {
        return;
      }
      if (!subscription.transactional()) {
        subscription.handler().handle(event);
        taken = event.seqNr();
        delivered++;
        return;
      }
      List<TransactWriteItem> writes = List.copyOf(subscription.writer().writes(event));
      if (writes.size() > TransactionalProjection.MAX_WRITES) {
        throw new IllegalArgumentException("projection '" + subscription.projection() + "' returned "
            + writes.size() + " writes for event " + event.seqNr() + " of " + definition.name() + " " + aggregateId
            + ", but one transaction holds at most " + TransactionalProjection.MAX_WRITES
            + " besides the position");
      }
      if (writes.isEmpty()) {
        taken = event.seqNr();
        delivered++;
      } else if (positions.commit(key, stored, event.seqNr(), writes)) {
        stored = event.seqNr();
        taken = stored;
        delivered++;
      } else {
        // Another delivery took this event, and maybe more: go on from where it got.
        stored = positions.read(key);
        taken = stored;
      }
    }

    /** Moves the stored position to what the projection has taken. */
    private void record() {
      if (taken <= stored) {
        return;
      }
      if (!subscription.transactional()) {
        positions.advance(key, taken);
      } else if (!positions.commit(key, stored, taken, List.of())) {
        // Moved by another delivery since: the events without writes taken here are its business now.
        taken = positions.read(key);
      }
      stored = taken;
    }
  }
}
