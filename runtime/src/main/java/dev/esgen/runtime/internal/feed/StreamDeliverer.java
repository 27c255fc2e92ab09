package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.feed.GapRead;
import dev.esgen.runtime.feed.TransactionalProjection;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.internal.storage.EventPage;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Delivers one {@link Delivery}: the events after the projection's position up to the last one offered,
 * in seq_nr order, each once. Offered events are decoded with the subscription's definition, as the
 * stream's history reads them (through the upcasters: a stored event may stand for several events now,
 * or none); events the batch lacks are read from the store with the layout's consistent
 * {@code readEvents}, at most {@value #GAP_PAGE} stored events at a time, and reported as a {@link GapRead}.
 *
 * <p>An at-least-once projection takes its events one after the other; then its position is advanced
 * once, to the last event it took. A transactional one commits each event's writes with the position,
 * conditioned on the position it read; an event without writes moves the position with the next commit;
 * the parts of a split stored event commit one by one with a count of the parts taken.
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
            take(next, event.decode(definition, aggregateId));
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
        EventPage<E> page;
        try {
          page = readPage(id, first, last, to);
        } catch (EventDecodingException unreadable) {
          if (unreadable.seqNr() <= first || unreadable.seqNr() > last) {
            nextType = unreadable.eventType();
            throw unreadable;
          }
          // The events before the one that does not read are handed over, so that the stream stops at that
          // one, as it does when the batch carries it.
          last = unreadable.seqNr() - 1;
          page = readPage(id, first, last, to);
        }
        // The page holds what its stored events stand for now: several for one an upcaster splits (with
        // the same seq_nr), none for one it drops.
        Map<Long, List<RecordedEvent<E>>> bySeqNr = page.events().stream()
            .collect(Collectors.groupingBy(RecordedEvent::seqNr));
        for (long seqNr = first; seqNr <= last; seqNr++) {
          if (taken < seqNr - 1) {
            // A commit found the position moved by another delivery, but not as far as this page got: the
            // next page starts after it.
            break;
          }
          List<RecordedEvent<E>> events = bySeqNr.getOrDefault(seqNr, List.of());
          nextType = events.isEmpty() ? null : events.get(0).eventType();
          take(seqNr, events);
        }
      }
    }

    /** Stored events {@code first .. last} of the gap up to {@code to}, which must all be there. */
    private EventPage<E> readPage(I id, long first, long last, long to) {
      EventPage<E> page = store.layoutFor(definition).readEvents(definition, id, first, last)
          .orElseThrow(() -> new CorruptStreamException(definition.name(), aggregateId,
              "the change feed saw event " + (to + 1) + ", but the store holds no such stream"));
      if (page.lastSeqNr() < last) {
        throw new CorruptStreamException(definition.name(), aggregateId, "the change feed saw event " + (to + 1)
            + ", but the stored stream ends at event " + page.lastSeqNr());
      }
      return page;
    }

    /**
     * Hands the projection stored event {@code seqNr} as the {@code events} it stands for now: one, several
     * for a stored event an upcaster splits, none for one it drops.
     */
    private void take(long seqNr, List<RecordedEvent<E>> events) throws Exception {
      if (seqNr <= taken) {
        return;
      }
      if (!subscription.transactional()) {
        for (RecordedEvent<E> event : events) {
          // A failure names the event the projection was handed, under its current type name.
          nextType = event.eventType();
          subscription.handler().handle(event);
          delivered++;
        }
        taken = seqNr;
        return;
      }
      if (events.size() > 1) {
        takeParts(seqNr, events);
        return;
      }
      if (!events.isEmpty()) {
        nextType = events.get(0).eventType();
      }
      List<TransactWriteItem> writes = events.isEmpty() ? List.of() : writesOf(events.get(0));
      if (writes.isEmpty()) {
        taken = seqNr;
        delivered += events.size();
      } else if (positions.commit(key, stored, seqNr, writes)) {
        stored = seqNr;
        taken = stored;
        delivered++;
      } else {
        // Another delivery took this event, and maybe more: go on from where it got.
        stored = positions.read(key);
        taken = stored;
      }
    }

    /**
     * Hands a transactional projection the events of stored event {@code seqNr}, split by an upcaster, one
     * by one: the writes of each commit with a count of the parts taken, which a later delivery reads to
     * go on after them (two parts often write one read-model item, which one transaction cannot).
     */
    private void takeParts(long seqNr, List<RecordedEvent<E>> events) throws Exception {
      PositionStore.Position at = positions.readPosition(key);
      if (at.seqNr() != stored) {
        // Another delivery moved the position: go on from where it got.
        stored = at.seqNr();
        taken = stored;
        return;
      }
      if (at.partsTaken() > 0 && at.splitSeqNr() != seqNr) {
        throw new IllegalStateException("projection '" + subscription.projection() + "' is part way through event "
            + at.splitSeqNr() + " of " + definition.name() + " " + aggregateId + ", but event " + seqNr
            + " is the first after its position " + stored + " to write: its writes differ between deliveries");
      }
      int first = at.splitSeqNr() == seqNr ? at.partsTaken() : 0;
      for (int part = first; part < events.size(); part++) {
        boolean last = part == events.size() - 1;
        nextType = events.get(part).eventType();
        List<TransactWriteItem> writes = writesOf(events.get(part));
        delivered++;
        if (writes.isEmpty() && !last) {
          continue;
        }
        if (writes.isEmpty()) {
          taken = seqNr;
        } else if (positions.commitPart(key, at, seqNr, part, last, writes)) {
          at = last ? new PositionStore.Position(seqNr, 0, 0) : new PositionStore.Position(seqNr - 1, seqNr, part + 1);
          // The events without writes taken before this one are recorded with the part: a later
          // record() must not move the position again, which would drop the part count.
          stored = at.seqNr();
        } else {
          stored = positions.read(key);
          taken = stored;
          return;
        }
      }
      if (at.seqNr() == seqNr) {
        stored = seqNr;
      }
      taken = seqNr;
    }

    /** {@code event}'s read-model writes, at most as many as a transaction holds beside the position. */
    private List<TransactWriteItem> writesOf(RecordedEvent<E> event) throws Exception {
      List<TransactWriteItem> writes = List.copyOf(subscription.writer().writes(event));
      if (writes.size() > TransactionalProjection.MAX_WRITES) {
        throw new IllegalArgumentException("projection '" + subscription.projection() + "' returned "
            + writes.size() + " writes for event " + event.seqNr() + " of " + definition.name() + " " + aggregateId
            + ", but one transaction holds at most " + TransactionalProjection.MAX_WRITES
            + " besides the position");
      }
      return writes;
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
