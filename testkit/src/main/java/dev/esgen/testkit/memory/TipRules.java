package dev.esgen.testkit.memory;

import static dev.esgen.runtime.internal.tip.TipAttributes.AID;
import static dev.esgen.runtime.internal.tip.TipAttributes.APPENDED;
import static dev.esgen.runtime.internal.tip.TipAttributes.APPEND_ID;
import static dev.esgen.runtime.internal.tip.TipAttributes.CASES;
import static dev.esgen.runtime.internal.tip.TipAttributes.DATA;
import static dev.esgen.runtime.internal.tip.TipAttributes.EVENTS;
import static dev.esgen.runtime.internal.tip.TipAttributes.EVENT_VERSION;
import static dev.esgen.runtime.internal.tip.TipAttributes.INDEX;
import static dev.esgen.runtime.internal.tip.TipAttributes.LISTING;
import static dev.esgen.runtime.internal.tip.TipAttributes.METADATA;
import static dev.esgen.runtime.internal.tip.TipAttributes.NEXT;
import static dev.esgen.runtime.internal.tip.TipAttributes.SCHEMA;
import static dev.esgen.runtime.internal.tip.TipAttributes.STREAM;
import static dev.esgen.runtime.internal.tip.TipAttributes.TIMESTAMP;
import static dev.esgen.runtime.internal.tip.TipAttributes.UNFOLD;
import static dev.esgen.runtime.internal.tip.TipAttributes.VERSION;
import static dev.esgen.testkit.memory.ItemSizes.attribute;
import static dev.esgen.testkit.memory.ItemSizes.container;
import static dev.esgen.testkit.memory.ItemSizes.number;
import static dev.esgen.testkit.memory.ItemSizes.utf8;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.TransactionTooLargeException;
import dev.esgen.runtime.internal.command.CommandRecords;
import dev.esgen.runtime.internal.index.IndexChanges;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.storage.AppendRequest;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The tip layout's rules (see {@code docs/layouts.md}): a stream's newest events and its snapshot live in
 * one tip item, which must stay within 400 KB. When the tip's events would pass the {@link TipPolicy}
 * threshold they are calved into a batch item and the tip starts over with the new events, or with none
 * when the new events alone pass it (those go into the batch item too, or into one of their own when the two
 * would not fit one item). An append is a
 * transaction (with its 100-action and 4 MB limits) only when it calves, changes a unique value or carries a
 * command id. The snapshot is rewritten on every append unless the aggregate is events-only, and skipped
 * when it would not fit in the tip; the older snapshot then goes too, so that the tip measured before
 * sending is the tip DynamoDB measures, and loads fold the stream from its first event. Streams list by id.
 */
final class TipRules implements LayoutRules {

  @Override
  public <A, I, E> PlannedAppend plan(AppendRequest<A, I, E> request, String aid, List<KeptEvent> events,
      IndexChanges changes, MemoryPosition position, long untouchedSlotBytes) {
    AggregateDefinition<A, I, E> definition = request.definition();
    String name = definition.name();
    TipPolicy policy = definition.tipPolicy();
    TipKeys keys = new TipKeys(name);
    long stream = attribute(STREAM, utf8(keys.streamName(aid)));
    long baseSeqNr = request.baseSeqNr();
    long next = baseSeqNr + events.size();
    long version = request.expectedVersion() + 1;
    Instant now = events.get(0).recordedAt();
    long timestamp = attribute(TIMESTAMP, utf8(now.toString()));
    boolean withMetadata = !request.metadata().isEmpty();
    long metadata = ItemSizes.metadata(request, METADATA, MetadataAttributes.TIP);

    long newEventBytes = 0;
    long newTypeBytes = 0;
    for (int i = 0; i < events.size(); i++) {
      KeptEvent event = events.get(i);
      int entries = 2 + (i == 0 ? 1 : 0) + (withMetadata ? 1 : 0) + (event.version() == 1 ? 0 : 1);
      newEventBytes += container(entries, timestamp + attribute(DATA, event.body().length)
          + ItemSizes.eventVersion(EVENT_VERSION, event.version())
          + (i == 0 ? attribute(APPEND_ID, utf8(request.appendId())) : 0) + metadata);
      newTypeBytes += utf8(event.type());
    }
    int keptEvents = position.tipEvents() + events.size();
    long keptEventBytes = position.tipEventBytes() + newEventBytes;
    long keptTypeBytes = position.tipTypeBytes() + newTypeBytes;
    // As the tip layout does: new events alone past the thresholds go to the batch with the tip's events, or,
    // when the two would not fit one item, to a batch of their own beside the tip's.
    Calved calved = new Calved(position.tipEvents(), position.tipEventBytes(), position.tipTypeBytes(), baseSeqNr);
    Calved apart = null;
    boolean calve = position.tipEvents() > 0 && overThreshold(policy, keptEvents, keptEventBytes, keptTypeBytes);
    boolean writtenThrough = false;
    if (!request.creating() && overThreshold(policy, events.size(), newEventBytes, newTypeBytes)) {
      Calved through = new Calved(keptEvents, keptEventBytes, keptTypeBytes, next);
      Calved own = new Calved(events.size(), newEventBytes, newTypeBytes, next);
      if (through.bytes(stream, baseSeqNr - position.tipEvents()) <= ItemTooLargeException.LIMIT_BYTES) {
        calved = through;
        writtenThrough = true;
      } else if (position.tipEvents() > 0 && own.bytes(stream, baseSeqNr) <= ItemTooLargeException.LIMIT_BYTES) {
        apart = own;
        writtenThrough = true;
      }
    }
    if (writtenThrough) {
      calve = true;
      keptEvents = 0;
      keptEventBytes = 0;
      keptTypeBytes = 0;
    } else if (calve) {
      keptEvents = events.size();
      keptEventBytes = newEventBytes;
      keptTypeBytes = newTypeBytes;
    }

    long keysAndCounters = keysAndCounters(definition, aid, version, next, events.size(), request.newState())
        + untouchedSlotBytes;
    long tip = keysAndCounters + attribute(EVENTS, container(keptEvents, keptEventBytes))
        + attribute(CASES, container(keptEvents, keptTypeBytes));
    byte[] body = policy.snapshot() ? Codecs.encodeSnapshot(definition, aid, next, request.newState()) : null;
    long snapshotBytes = 0;
    if (body != null) {
      String fingerprint = definition.snapshotCodec().fingerprint();
      snapshotBytes = attribute(UNFOLD, container(fingerprint.isEmpty() ? 3 : 4,
          attribute(INDEX, number(next)) + timestamp + attribute(DATA, body.length)
              + (fingerprint.isEmpty() ? 0 : attribute(SCHEMA, utf8(fingerprint)))));
    }
    if (tip + snapshotBytes > ItemTooLargeException.LIMIT_BYTES && !calve && position.tipEvents() > 0) {
      // As the tip layout does: past the item limit, the events held go to a batch item before the
      // snapshot is given up, though the policy's thresholds (which count the events alone) were not passed.
      calve = true;
      keptEvents = events.size();
      keptEventBytes = newEventBytes;
      keptTypeBytes = newTypeBytes;
      tip = keysAndCounters + attribute(EVENTS, container(keptEvents, keptEventBytes))
          + attribute(CASES, container(keptEvents, keptTypeBytes));
    }
    byte[] snapshot = null;
    Optional<SkippedSnapshot> skipped = Optional.empty();
    if (body != null) {
      if (tip + snapshotBytes > ItemTooLargeException.LIMIT_BYTES) {
        // The update then removes the older snapshot too: the tip is measured without any.
        skipped = Optional.of(
            new SkippedSnapshot(name, aid, next, tip + snapshotBytes, ItemTooLargeException.LIMIT_BYTES));
      } else {
        snapshot = body;
        tip += snapshotBytes;
      }
    }
    if (tip > ItemTooLargeException.LIMIT_BYTES) {
      throw new ItemTooLargeException(name, aid, "tip with events " + (next - keptEvents + 1) + " to " + next, tip);
    }

    boolean reserves = !changes.reservations().isEmpty() || !changes.releases().isEmpty();
    boolean transactional = calve || reserves || request.commandId().isPresent();
    if (transactional) {
      checkTransaction(request, aid, changes, position, calve ? calved : null, apart, stream, tip, version, next, now);
    }
    MemoryPosition after = snapshot != null
        ? new MemoryPosition(LayoutKind.TIP, next, snapshotBytes, false, List.of(), keptEvents, keptEventBytes,
            keptTypeBytes)
        : new MemoryPosition(LayoutKind.TIP, 0, 0, false, List.of(), keptEvents, keptEventBytes, keptTypeBytes);
    return new PlannedAppend(snapshot, snapshot == null, after, skipped);
  }

  /**
   * As the tip layout measures a reindex: the tip as loaded (its events and snapshot), with every index slot
   * of the state and the count of events the last change added set to 0.
   */
  @Override
  public <A> void checkReindex(AggregateDefinition<A, ?, ?> definition, String aid, LoadedStream<A> loaded,
      long untouchedSlotBytes) {
    MemoryPosition position = (MemoryPosition) loaded.position();
    long tip = keysAndCounters(definition, aid, loaded.version(), loaded.seqNr(), 0, loaded.state())
        + untouchedSlotBytes
        + attribute(EVENTS, container(position.tipEvents(), position.tipEventBytes()))
        + attribute(CASES, container(position.tipEvents(), position.tipTypeBytes()))
        + position.snapshotBytes();
    if (tip > ItemTooLargeException.LIMIT_BYTES) {
      throw new ItemTooLargeException(definition.name(), aid, "index values of version " + loaded.version(), tip);
    }
  }

  /** The tip's keys, counters, id, listing key and the index slots of {@code state}: all but events and snapshot. */
  private static <A> long keysAndCounters(AggregateDefinition<A, ?, ?> definition, String aid, long version, long next,
      int appended, A state) {
    TipKeys keys = new TipKeys(definition.name());
    return attribute(STREAM, utf8(keys.streamName(aid))) + attribute(INDEX, number(TipKeys.TIP_INDEX))
        + attribute(VERSION, number(version)) + attribute(NEXT, number(next)) + attribute(APPENDED, number(appended))
        + attribute(AID, utf8(aid)) + attribute(LISTING, utf8(keys.listingKey(aid, definition.shards())))
        + ItemSizes.indexSlots(definition, state);
  }

  @Override
  public boolean indexChangesFirst() {
    return true;
  }

  @Override
  public String listingKey(String aggregateName, String aid) {
    return aid;
  }

  /** {@inheritDoc} On this layout the aid. */
  @Override
  public String listingAttribute() {
    return AID;
  }

  /**
   * The events a calving append writes to a batch item: how many, their sizes in the lists, and the
   * {@code next} the batch ends at.
   */
  private record Calved(int events, long eventBytes, long typeBytes, long next) {

    /** The size of the batch item, whose first event follows {@code first}, in a stream of that key size. */
    long bytes(long stream, long first) {
      return stream + attribute(INDEX, number(first)) + attribute(NEXT, number(next))
          + attribute(EVENTS, container(events, eventBytes)) + attribute(CASES, container(events, typeBytes));
    }
  }

  /**
   * The transaction of an append that calves (writing {@code calved}, else null, and the new events' own batch
   * {@code apart}, else null), changes a unique value or carries a command id.
   */
  private static void checkTransaction(AppendRequest<?, ?, ?> request, String aid, IndexChanges changes,
      MemoryPosition position, Calved calved, Calved apart, long stream, long tip, long version, long next,
      Instant now) {
    String name = request.definition().name();
    long actions = 0;
    long bytes = 0;
    if (calved != null) {
      long first = request.baseSeqNr() - position.tipEvents();
      long batch = calved.bytes(stream, first);
      if (batch > ItemTooLargeException.LIMIT_BYTES) {
        throw new ItemTooLargeException(name, aid, "batch of events " + (first + 1) + " to " + calved.next(), batch);
      }
      actions++;
      bytes += batch;
    }
    if (apart != null) {
      actions++;
      bytes += apart.bytes(stream, request.baseSeqNr());
    }
    actions++;
    bytes += tip;
    for (IndexChanges.UniqueChange reservation : changes.reservations()) {
      actions++;
      bytes += UniqueReservations.itemSize(reservation, aid);
    }
    actions += changes.releases().size();
    if (request.commandId().isPresent()) {
      actions++;
      bytes += CommandRecords.itemSize(name, aid, request.commandId().get(), request.appendId(), version, next, now);
    }
    if (actions > TransactionTooLargeException.ACTION_LIMIT || bytes > TransactionTooLargeException.BYTE_LIMIT) {
      throw new TransactionTooLargeException(name, aid, (int) actions, bytes);
    }
  }

  /** Whether a tip holding {@code events} events of these sizes is past the policy's calving threshold. */
  private static boolean overThreshold(TipPolicy policy, int events, long eventBytes, long typeBytes) {
    if (policy.maxEvents() > 0 && events > policy.maxEvents()) {
      return true;
    }
    return attribute(EVENTS, container(events, eventBytes)) + attribute(CASES, container(events, typeBytes))
        > policy.maxBytes();
  }
}
