package dev.esgen.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.journal.JournalLayout;
import dev.esgen.runtime.storage.StorageLayout;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The {@link EventStore} on Amazon DynamoDB.
 *
 * <p>Every aggregate type is stored in the journal + snapshot layout ({@link JournalLayout}) in the two
 * tables the {@link StoreConfig} names. The store holds no per-aggregate state and is safe to share
 * between threads and repositories; it does not own the client and does not close it.
 *
 * <pre>{@code
 * DynamoDbClient client = DynamoDbClient.create();
 * EventStore store = DynamoDbEventStore.create(client, StoreConfig.defaults());
 * BankAccountRepository accounts = new BankAccountRepository(store);
 * }</pre>
 */
public final class DynamoDbEventStore implements EventStore {

  private final StoreConfig config;
  private final JournalLayout journal;

  private DynamoDbEventStore(DynamoDbClient client, StoreConfig config) {
    this.config = config;
    this.journal = new JournalLayout(client, config);
  }

  /** A store on {@code client} with {@code config}. */
  public static DynamoDbEventStore create(DynamoDbClient client, StoreConfig config) {
    return new DynamoDbEventStore(Objects.requireNonNull(client, "client"), Objects.requireNonNull(config, "config"));
  }

  /** The settings this store was created with. */
  public StoreConfig config() {
    return config;
  }

  @Override
  public ObjectMapper objectMapper() {
    return config.objectMapper();
  }

  @Override
  public StorageLayout layoutFor(AggregateDefinition<?, ?, ?> definition) {
    return journal;
  }

  @Override
  public RetryPolicy retryPolicy() {
    return config.retryPolicy();
  }
}
