package dev.esgen.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.metrics.OperationRecorder;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.retry.RetryBudgets;
import dev.esgen.runtime.storage.StorageLayout;

/**
 * The store generated repositories write to and read from.
 *
 * <pre>{@code
 * EventStore store = DynamoDbEventStore.create(dynamoDbClient, StoreConfig.defaults());
 * BankAccountRepository accounts = new BankAccountRepository(store);
 * }</pre>
 */
public interface EventStore {

  /** The mapper generated codecs use for event and snapshot bodies. */
  ObjectMapper objectMapper();

  /** The storage layout that holds streams of the aggregate type {@code definition} describes. */
  StorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition);

  /** The retry budget of every repository operation. */
  RetryPolicy retryPolicy();

  /**
   * Runs each repository operation with its retry budget and measures it for the store's
   * {@link StoreListener}; a store without a listener reports to none.
   */
  default OperationRecorder recorder() {
    return new OperationRecorder(StoreListener.NONE, new RetryBudgets(retryPolicy()));
  }
}
