package dev.esgen.runtime.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
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
   * Appends the request's events in one atomic write conditioned on the stream still being at the
   * version it was loaded at (or not existing, for a request without a current stream).
   *
   * @return the stream after the append
   * @throws dev.esgen.runtime.error.ConcurrentModificationException when another writer got there first
   */
  <A, I, E> LoadedStream<A> append(AppendRequest<A, I, E> request);
}
