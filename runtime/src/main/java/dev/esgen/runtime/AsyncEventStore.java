package dev.esgen.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The store generated asynchronous repositories ({@code FooAsyncRepository}, see
 * {@code @Aggregate(async = true)}) write to and read from, over a {@code DynamoDbAsyncClient}. Users
 * create one and hand it to the repositories (or let a DI container do so). A store made from a
 * synchronous one with {@link DynamoDbEventStore#withAsyncClient} shares its settings, state cache and
 * listener, so synchronous and asynchronous repositories of one aggregate type see the same cache.
 *
 * <pre>{@code
 * AsyncEventStore store = DynamoDbAsyncEventStore.create(dynamoDbAsyncClient, StoreConfig.defaults());
 * BankAccountAsyncRepository accounts = new BankAccountAsyncRepository(store);
 * }</pre>
 */
public interface AsyncEventStore {

  /** The mapper generated codecs use for event and snapshot bodies. */
  ObjectMapper objectMapper();
}
