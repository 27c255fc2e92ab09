package dev.esgen.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The store generated repositories write to and read from. Users create one and hand it to the
 * repositories (or let a DI container do so); everything a repository does goes through it.
 *
 * <pre>{@code
 * EventStore store = DynamoDbEventStore.create(dynamoDbClient, StoreConfig.defaults());
 * BankAccountRepository accounts = new BankAccountRepository(store);
 * }</pre>
 */
public interface EventStore {

  /** The mapper generated codecs use for event and snapshot bodies. */
  ObjectMapper objectMapper();
}
