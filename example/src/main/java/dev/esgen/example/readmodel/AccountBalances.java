package dev.esgen.example.readmodel;

import dev.esgen.example.account.AccountClosed;
import dev.esgen.example.account.AccountEvent;
import dev.esgen.example.account.AccountId;
import dev.esgen.example.account.AccountOpened;
import dev.esgen.example.account.BalanceChanged;
import dev.esgen.runtime.feed.TransactionalProjection;
import dev.esgen.runtime.history.RecordedEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * A read model kept by the change feed: one item per account with its owner, balance and the number of
 * events applied, in a DynamoDB table of its own. A query side reads it without loading the aggregate.
 *
 * <p>The updates add to what is stored ({@code ADD balance_cents :delta}), which is not idempotent: an
 * event applied twice would count twice. So the projection is a {@link TransactionalProjection}: the
 * feed commits each event's update together with the projection's position, exactly once. The
 * alternative, at-least-once delivery with a last-applied seq_nr stored per item and a condition on it,
 * would cost the same one write per event, and this way the read model's code holds no bookkeeping.
 */
public final class AccountBalances {

  /** The projection's name: its positions are stored under it. */
  public static final String PROJECTION = "account-balances";

  /** One account as the read model knows it. */
  public record Balance(String owner, long cents, long events, boolean closed) {}

  private final DynamoDbClient client;
  private final String table;

  public AccountBalances(DynamoDbClient client, String table) {
    this.client = client;
    this.table = table;
  }

  /** Creates the read model's table (on demand, keyed by account id) unless it exists, and waits until it is active. */
  public void createTableIfMissing() {
    try {
      client.createTable(b -> b.tableName(table)
          .billingMode(BillingMode.PAY_PER_REQUEST)
          .attributeDefinitions(AttributeDefinition.builder()
              .attributeName("account").attributeType(ScalarAttributeType.S).build())
          .keySchema(KeySchemaElement.builder().attributeName("account").keyType(KeyType.HASH).build()));
    } catch (ResourceInUseException exists) {
      // Exists, or another process is creating it right now: either way, wait below until it is active.
    }
    client.waiter().waitUntilTableExists(b -> b.tableName(table));
  }

  /** The projection that keeps the read model; register it with {@code transactionalProjection}. */
  public TransactionalProjection<AccountEvent> projection() {
    return this::writes;
  }

  /** What the read model holds for {@code id}, read consistently; empty before its first event arrived. */
  public Optional<Balance> find(AccountId id) {
    Map<String, AttributeValue> item = client.getItem(b -> b.tableName(table).consistentRead(true)
        .key(key(id.value().toString()))).item();
    if (item == null || item.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Balance(
        item.containsKey("owner") ? item.get("owner").s() : null,
        item.containsKey("balance_cents") ? Long.parseLong(item.get("balance_cents").n()) : 0,
        Long.parseLong(item.get("events").n()),
        item.containsKey("closed") && item.get("closed").bool()));
  }

  private List<TransactWriteItem> writes(RecordedEvent<AccountEvent> recorded) {
    // Every event counts, so that a doubled or missing event shows even when it moves no money.
    List<String> set = new ArrayList<>();
    List<String> add = new ArrayList<>(List.of("events :one"));
    Map<String, String> names = new HashMap<>();
    Map<String, AttributeValue> values = new HashMap<>(Map.of(":one", AttributeValue.fromN("1")));
    AccountEvent event = recorded.event();
    if (event instanceof AccountOpened opened) {
      set.add("#owner = :owner");
      names.put("#owner", "owner");                     // a reserved word in DynamoDB expressions
      values.put(":owner", AttributeValue.fromS(opened.owner()));
    } else if (event instanceof BalanceChanged changed) {
      add.add("balance_cents :delta");
      values.put(":delta", AttributeValue.fromN(Long.toString(changed.deltaCents())));
    } else if (event instanceof AccountClosed) {
      set.add("closed = :closed");
      values.put(":closed", AttributeValue.fromBool(true));
    }
    String expression = (set.isEmpty() ? "" : "SET " + String.join(", ", set) + " ") + "ADD " + String.join(", ", add);
    return List.of(TransactWriteItem.builder().update(u -> u
        .tableName(table)
        .key(key(recorded.aggregateId()))
        .updateExpression(expression)
        .expressionAttributeNames(names.isEmpty() ? null : names)
        .expressionAttributeValues(values)).build());
  }

  private static Map<String, AttributeValue> key(String accountId) {
    return Map.of("account", AttributeValue.fromS(accountId));
  }
}
