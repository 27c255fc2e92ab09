package dev.esgen.runtime.feed;

import dev.esgen.runtime.history.RecordedEvent;

/**
 * Reacts to the events of one aggregate type, delivered by a {@link ChangeFeed}: each stream's events in
 * seq_nr order, none skipped, at least once.
 *
 * <p>The feed calls {@link #handle} for an event only after the projection took every earlier event of
 * the same stream, and records how far it got in the positions table after {@code handle} returns. An
 * event may therefore come again when the process stops between the two, or when two processes deliver
 * the same stream at once (a replay on one machine while the live feed runs on another); make the handler
 * idempotent, for example by keeping the last seq_nr applied per stream, or use a
 * {@link TransactionalProjection} for a read model in DynamoDB. Different streams are delivered
 * independently and may interleave.
 *
 * <p>When {@code handle} throws, the stream stops at that event: the feed tries it again after a pause
 * (see {@link ChangeFeed.Builder#retryPolicy}), reports each failure to its {@link FeedListener}, and
 * no later event of the stream is delivered before this one succeeded.
 *
 * <pre>{@code
 * Projection<AccountEvent> balances = recorded -> {
 *   if (recorded.event() instanceof MoneyDeposited deposited) {
 *     balanceTable.add(recorded.aggregateId(), deposited.cents(), recorded.seqNr());
 *   }
 * };
 * ChangeFeed feed = ChangeFeed.builder(store).projection("balances", accounts.definition(), balances).build();
 * }</pre>
 *
 * @param <E> the sealed root of the aggregate's events
 */
@FunctionalInterface
public interface Projection<E> {

  /**
   * Takes one event of a stream; returns once the event's effect is stored wherever the projection
   * keeps it.
   *
   * @throws Exception to have the event tried again later; the stream waits for it
   */
  void handle(RecordedEvent<E> event) throws Exception;
}
