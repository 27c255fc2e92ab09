package dev.esgen.runtime.feed;

import dev.esgen.runtime.history.RecordedEvent;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * A projection whose read model lives in DynamoDB and takes each event exactly once: instead of writing,
 * it returns the writes an event causes, and the {@link ChangeFeed} commits them together with the
 * projection's new position in one {@code TransactWriteItems}, conditioned on the position being where
 * it was read. An event the read model already took finds the position past it and is dropped; a
 * transaction that lost its response and was sent again is applied at most once.
 *
 * <p>Return at most {@value #MAX_WRITES} writes (DynamoDB allows 100 actions per transaction, one is the
 * position), none of them on the positions table, and at most one per item. An event that causes no
 * write costs no request of its own: its position goes with the next event's transaction, or with the
 * last write for the stream. The method may be called more than once for one event (after a failed
 * attempt, or when another process got there first) and must only compute, not write.
 *
 * <pre>{@code
 * TransactionalProjection<AccountEvent> balances = recorded -> {
 *   if (!(recorded.event() instanceof MoneyDeposited deposited)) {
 *     return List.of();
 *   }
 *   return List.of(TransactWriteItem.builder().update(u -> u
 *       .tableName("balances")
 *       .key(Map.of("account", AttributeValue.fromS(recorded.aggregateId())))
 *       .updateExpression("ADD cents :c")
 *       .expressionAttributeValues(Map.of(":c", AttributeValue.fromN(Long.toString(deposited.cents())))))
 *       .build());
 * };
 * ChangeFeed feed = ChangeFeed.builder(store)
 *     .transactionalProjection("balances", accounts.definition(), balances)
 *     .build();
 * }</pre>
 *
 * @param <E> the sealed root of the aggregate's events
 */
@FunctionalInterface
public interface TransactionalProjection<E> {

  /** The most writes one event may cause: one action of DynamoDB's 100 is the position update. */
  int MAX_WRITES = 99;

  /**
   * The read-model writes {@code event} causes; an empty list when it causes none.
   *
   * @throws Exception to have the event tried again later; the stream waits for it
   */
  List<TransactWriteItem> writes(RecordedEvent<E> event) throws Exception;
}
