package dev.esgen.runtime.streams;

import dev.esgen.runtime.error.TableSchemaMismatchException;
import dev.esgen.runtime.internal.TableNames;
import dev.esgen.runtime.internal.streams.CheckpointStore;
import java.util.Locale;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The table a {@link StreamPoller} keeps its checkpoints in: on demand, hash key {@code pkey} (S), range
 * key {@code skey} (S). A consumer's items all have {@code pkey = checkpoint#{consumer}}, so the table can
 * be shared with other items keyed the same way (not the change feed's positions table, which is keyed
 * {@code projection} and {@code stream}). The items are described in {@code docs/schema.md}.
 *
 * <pre>{@code
 * CheckpointTable.createIfMissing(dynamoDb, "esgen-feed");   // development and tests; IaC in production
 * }</pre>
 */
public final class CheckpointTable {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointTable.class);

  private CheckpointTable() {}

  /**
   * The table's definition, for {@code CreateTable} or to compare an infrastructure template with.
   *
   * @throws IllegalArgumentException when DynamoDB would refuse the name
   */
  public static CreateTableRequest definition(String tableName) {
    return CreateTableRequest.builder()
        .tableName(TableNames.require("tableName", tableName))
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(stringAttribute(CheckpointStore.PKEY), stringAttribute(CheckpointStore.SKEY))
        .keySchema(
            KeySchemaElement.builder().attributeName(CheckpointStore.PKEY).keyType(KeyType.HASH).build(),
            KeySchemaElement.builder().attributeName(CheckpointStore.SKEY).keyType(KeyType.RANGE).build())
        .build();
  }

  /**
   * Creates the table unless it exists, and waits until it is active.
   *
   * @return whether this call created it
   * @throws IllegalArgumentException when DynamoDB would refuse the name; nothing is sent then
   * @throws TableSchemaMismatchException when a table of that name exists with other keys; it is left as it is
   */
  public static boolean createIfMissing(DynamoDbClient client, String tableName) {
    CreateTableRequest definition = definition(tableName);
    boolean created;
    try {
      check(definition, client.describeTable(b -> b.tableName(tableName)).table());
      created = false;
    } catch (ResourceNotFoundException missing) {
      try {
        client.createTable(definition);
        LOG.info("creating checkpoint table {}", tableName);
        created = true;
      } catch (ResourceInUseException createdMeanwhile) {
        check(definition, client.describeTable(b -> b.tableName(tableName)).table());
        created = false;
      }
    }
    client.waiter().waitUntilTableExists(b -> b.tableName(tableName));
    return created;
  }

  private static void check(CreateTableRequest expected, TableDescription existing) {
    String needed = expected.keySchema().stream()
        .map(k -> describe(k, ScalarAttributeType.S.toString()))
        .collect(Collectors.joining(", "));
    String found = existing.keySchema().stream()
        .map(k -> describe(k, existing.attributeDefinitions().stream()
            .filter(a -> a.attributeName().equals(k.attributeName()))
            .map(AttributeDefinition::attributeTypeAsString)
            .findFirst().orElse("?")))
        .collect(Collectors.joining(", "));
    if (!needed.equals(found)) {
      throw new TableSchemaMismatchException(expected.tableName(), null, needed, found);
    }
  }

  private static String describe(KeySchemaElement key, String type) {
    return key.keyTypeAsString().toLowerCase(Locale.ROOT) + " key " + key.attributeName() + " (" + type + ")";
  }

  private static AttributeDefinition stringAttribute(String name) {
    return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
  }
}
