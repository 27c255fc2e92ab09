package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.command.CommandRecord;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * How one aggregate type's streams are laid out in DynamoDB: the storage-layout SPI.
 *
 * <p>Repositories only talk to this interface; an {@link dev.esgen.runtime.EventStore} picks the layout
 * per aggregate type. A layout loads a stream into its current state and appends events to it as one
 * atomic, version-conditioned write. What it needs to remember between the two (where the last snapshot
 * is, which older snapshots are kept) travels in the {@link LoadedStream#position()} it hands out, so the
 * layout itself stays stateless and a load plus an append cost no extra reads.
 *
 * <p>A layout also keeps the aggregate's index columns consistent with its streams: every append writes
 * the {@link dev.esgen.runtime.internal.index.IndexChanges} between the loaded and the new state in the same atomic
 * write (reservations through {@link dev.esgen.runtime.internal.index.UniqueReservations}, failing with
 * {@link dev.esgen.runtime.error.DuplicateValueException}), {@link #reindex} writes all of a state's
 * values for streams stored before their columns were declared, and the layout answers the lookups below.
 *
 * <pre>{@code
 * StorageLayout layout = store.layoutFor(definition);
 * Optional<LoadedStream<BankAccount>> current = layout.load(definition, id);
 * LoadedStream<BankAccount> next = layout.append(
 *     new AppendRequest<>(definition, id, current, List.of(deposited), current.get().state().apply(deposited)));
 * }</pre>
 */
public interface StorageLayout {

  /**
   * The stream's current state, version and last seq_nr, read with strong consistency; empty when no
   * stream is stored under {@code id}.
   */
  <A, I, E> Optional<LoadedStream<A>> load(AggregateDefinition<A, I, E> definition, I id);

  /**
   * As {@link #load(AggregateDefinition, Object)}, read with {@code consistency}. A layout that cannot read
   * eventually consistent (or gains nothing by it) reads strongly, which is always allowed: this default.
   */
  default <A, I, E> Optional<LoadedStream<A>> load(
      AggregateDefinition<A, I, E> definition, I id, ReadConsistency consistency) {
    return load(definition, id);
  }

  /**
   * As {@link #load(AggregateDefinition, Object, ReadConsistency)}, given {@code remembered}, the stream as
   * this store last read or wrote it (its state cache's entry): where that is no further back than the
   * stream's snapshot (see {@link LoadedStream#canResumeFold}), the layout folds on from it and reads and
   * decodes only what was appended since. The result is the same either way (only what lies before the
   * remembered state is not read, so not checked, again); a layout that gains nothing by it ignores it:
   * this default.
   */
  default <A, I, E> Optional<LoadedStream<A>> load(AggregateDefinition<A, I, E> definition, I id,
      ReadConsistency consistency, Optional<LoadedStream<A>> remembered) {
    return load(definition, id, consistency);
  }

  /**
   * Appends the request's events in one atomic write conditioned on the stream still being at the
   * version it was loaded at (or not existing, for a request without a current stream). The request's
   * append id is stored with its first event, and its command id, if any, as a command record in the same
   * write. A write whose outcome is unknown is settled by reading the append id back: the layout returns
   * only when the append is stored, and throws a "nothing written" error only when it is not.
   *
   * @return the stream after the append
   * @throws dev.esgen.runtime.error.VersionConflictException when another writer got there first
   * @throws dev.esgen.runtime.error.AppendOutcomeUnknownException when the retry budget ran out before
   *     the layout could tell whether the append was stored
   * @throws dev.esgen.runtime.internal.command.CommandAlreadyAppliedException when the request's command was
   *     applied by a concurrent try
   */
  <A, I, E> LoadedStream<A> append(AppendRequest<A, I, E> request);

  /**
   * The record of command {@code commandId} on the stream {@code id}, read with strong consistency; empty
   * when the command was never applied to it.
   */
  <A, I, E> Optional<CommandRecord> findCommand(AggregateDefinition<A, I, E> definition, I id, String commandId);

  /**
   * The events {@code fromSeqNr} to {@code toSeqNr} (both inclusive; {@code toSeqNr} may lie past the
   * stream's end) of the stream {@code id}, read with strong consistency; empty when no stream is stored
   * under {@code id}. One call reads one slice; callers page through long streams.
   */
  <A, I, E> Optional<EventPage<E>> readEvents(
      AggregateDefinition<A, I, E> definition, I id, long fromSeqNr, long toSeqNr);

  /**
   * The streams of {@code ids} that exist, read with strong consistency in as few requests as the layout
   * allows (not one per id); ids without a stream are absent. The map iterates in the order of
   * {@code ids}, each id once.
   */
  <A, I, E> Map<I, LoadedStream<A>> loadAll(AggregateDefinition<A, I, E> definition, Collection<I> ids);

  /** As {@link #loadAll(AggregateDefinition, Collection)}, read with {@code consistency}; by default strongly. */
  default <A, I, E> Map<I, LoadedStream<A>> loadAll(
      AggregateDefinition<A, I, E> definition, Collection<I> ids, ReadConsistency consistency) {
    return loadAll(definition, ids);
  }

  /**
   * As {@link #loadAll(AggregateDefinition, Collection, ReadConsistency)}, given the streams this store
   * remembers of some of {@code ids}: each is folded on from as
   * {@link #load(AggregateDefinition, Object, ReadConsistency, Optional)} says. By default ignored.
   */
  default <A, I, E> Map<I, LoadedStream<A>> loadAll(AggregateDefinition<A, I, E> definition, Collection<I> ids,
      ReadConsistency consistency, Map<I, LoadedStream<A>> remembered) {
    return loadAll(definition, ids, consistency);
  }

  /** A page of every stream of the aggregate type, in the layout's documented, stable order. */
  <A, I, E> Page<LoadedStream<A>> listAll(AggregateDefinition<A, I, E> definition, PageRequest page);

  /**
   * The id of the aggregate that holds {@code value} (its stored string form, not yet normalised) in the
   * {@code @Unique} column {@code column}, read with strong consistency: an append that completed is seen.
   */
  <A, I, E> Optional<I> findUnique(AggregateDefinition<A, I, E> definition, IndexColumn column, String value);

  /**
   * As {@link #findUnique(AggregateDefinition, IndexColumn, String)}, read with {@code consistency}; by
   * default strongly.
   */
  default <A, I, E> Optional<I> findUnique(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, ReadConsistency consistency) {
    return findUnique(definition, column, value);
  }

  /**
   * A page of the ids of aggregates whose {@code @Indexed} column {@code column} holds {@code value} (its
   * stored string form), ordered by the id string's UTF-8 bytes (DynamoDB's order). Read from an index that
   * is eventually consistent: an id may be missing for a moment after an append, or listed although its value
   * just changed; callers check the loaded state.
   */
  <A, I, E> Page<I> findIndexed(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, PageRequest page);

  /**
   * Writes every index value of {@code stream}'s state, whether it changed or not: each
   * {@code @Indexed} slot set to its value or removed for null, and a reservation held by this aggregate
   * for each non-null {@code @Unique} value (see {@link dev.esgen.runtime.internal.index.IndexBackfill}). Appends
   * write only the values that change, so this is how streams stored before a column was declared get
   * found by it.
   *
   * <p>One atomic write conditioned on the stream still being at {@code stream.version()}, so values
   * read before a concurrent append never overwrite that append's. It is no append: no event is
   * written, and version and seq_nr stay as they are. Idempotent: writing the same values again changes
   * nothing, and a reservation this aggregate already holds is simply written again. Reservations of
   * values the aggregate no longer holds are left alone (they are not known without a scan).
   *
   * <pre>{@code
   * LoadedStream<BankAccount> loaded = layout.load(definition, id).orElseThrow();
   * layout.reindex(definition, loaded);   // now found by every @Indexed and @Unique column
   * }</pre>
   *
   * @param stream the stream as this layout loaded or listed it; its state names the aggregate
   * @throws dev.esgen.runtime.error.VersionConflictException when the stream is no longer at
   *     that version (or gone); nothing is written, reload and reindex again
   * @throws dev.esgen.runtime.error.DuplicateValueException when another aggregate holds one of the
   *     state's {@code @Unique} values; nothing is written
   */
  <A, I, E> void reindex(AggregateDefinition<A, I, E> definition, LoadedStream<A> stream);
}
