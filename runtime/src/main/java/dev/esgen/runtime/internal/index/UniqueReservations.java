package dev.esgen.runtime.internal.index;

import dev.esgen.runtime.error.DuplicateValueException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.index.IndexChanges.UniqueChange;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.keys.IndexKeys;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The reservation items of {@code @Unique} values in one table: the transaction actions that take and
 * give up a value, and the strongly consistent read that finds a value's holder.
 *
 * <p>A reservation is an item {@code pkey = {aggregate}#{column}#{normalised value}},
 * {@code skey = "unique"}, {@code aid = holder}. Taking a value is a Put conditioned on
 * {@code attribute_not_exists(pkey) OR aid = :aid}; giving it up is a Delete under the same condition,
 * so an aggregate never removes another one's reservation. Both go into the append's own transaction:
 * if the value is taken, the whole append (events included) is cancelled, and the cancellation reason
 * for the Put carries the holder's item, so {@link #duplicate} can name it without another read.
 *
 * <pre>{@code
 * UniqueReservations reservations = new UniqueReservations("snapshot");
 * transaction.add(reservations.reserve(change, aid));
 * Optional<String> holder = reservations.holder(client, "bank-account", email, "ann@example.com");
 * }</pre>
 */
public final class UniqueReservations {

  private static final String CONDITION = "attribute_not_exists(#pkey) OR #aid = :aid";

  private final String table;

  public UniqueReservations(String table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  /** The Put that reserves {@code change}'s value for {@code aid}. */
  public TransactWriteItem reserve(UniqueChange change, String aid) {
    return TransactWriteItem.builder()
        .put(Put.builder()
            .tableName(table)
            .item(item(change, aid))
            .conditionExpression(CONDITION)
            .expressionAttributeNames(Map.of("#pkey", IndexKeys.PKEY, "#aid", IndexKeys.AID))
            .expressionAttributeValues(Map.of(":aid", AttributeValue.fromS(aid)))
            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
            .build())
        .build();
  }

  /** The Delete that gives up {@code change}'s value if {@code aid} holds it. */
  public TransactWriteItem release(UniqueChange change, String aid) {
    return TransactWriteItem.builder()
        .delete(Delete.builder()
            .tableName(table)
            .key(key(change.key()))
            .conditionExpression(CONDITION)
            .expressionAttributeNames(Map.of("#pkey", IndexKeys.PKEY, "#aid", IndexKeys.AID))
            .expressionAttributeValues(Map.of(":aid", AttributeValue.fromS(aid)))
            .build())
        .build();
  }

  /** The size of a reservation item under DynamoDB's rules, for the transaction's size check. */
  public static long itemSize(UniqueChange change, String aid) {
    return ItemSize.of(item(change, aid));
  }

  private static Map<String, AttributeValue> item(UniqueChange change, String aid) {
    return Map.of(
        IndexKeys.PKEY, AttributeValue.fromS(change.key()),
        IndexKeys.SKEY, AttributeValue.fromS(IndexKeys.UNIQUE_SORT_KEY),
        IndexKeys.AID, AttributeValue.fromS(aid));
  }

  /**
   * The id string of the aggregate holding {@code value} (a stored string form, normalised here) in
   * {@code column}, read with strong consistency: a value reserved by a completed append is found.
   *
   * @throws MissingTableException when the table does not exist
   */
  public Optional<String> holder(DynamoDbClient client, String aggregateName, IndexColumn column, String value) {
    return holder(client, aggregateName, column, value, true);
  }

  /**
   * As {@link #holder(DynamoDbClient, String, IndexColumn, String)}, read eventually consistent unless
   * {@code consistent}: a value reserved a moment ago may then be missed, for half the read units.
   */
  public Optional<String> holder(
      DynamoDbClient client, String aggregateName, IndexColumn column, String value, boolean consistent) {
    Map<String, AttributeValue> item;
    try {
      item = client.getItem(holderRequest(aggregateName, column, value, consistent)).item();
    } catch (ResourceNotFoundException e) {
      throw missingTable(e);
    }
    return holderIn(item);
  }

  /** The read of the reservation of {@code value} (not yet normalised) in {@code column}. */
  public GetItemRequest holderRequest(String aggregateName, IndexColumn column, String value, boolean consistent) {
    String key = IndexKeys.valueKey(aggregateName, column.name(), column.normalize(value));
    return GetItemRequest.builder().tableName(table).key(key(key)).consistentRead(consistent).build();
  }

  /** The error for the table of reservations missing. */
  public MissingTableException missingTable(ResourceNotFoundException e) {
    return new MissingTableException(List.of(table), e);
  }

  /** The id string of the aggregate holding the reservation {@code item} (as {@link #holderRequest} read it), if any. */
  public static Optional<String> holderIn(Map<String, AttributeValue> item) {
    if (item == null || !item.containsKey(IndexKeys.AID)) {
      return Optional.empty();
    }
    return Optional.of(item.get(IndexKeys.AID).s());
  }

  /** The error for a reservation whose condition failed: {@code change}'s value is held by another aggregate. */
  public static DuplicateValueException duplicate(String aggregateName, UniqueChange change, CancellationReason reason) {
    Optional<String> holder = reason.hasItem() && reason.item().containsKey(IndexKeys.AID)
        ? Optional.of(reason.item().get(IndexKeys.AID).s())
        : Optional.empty();
    return new DuplicateValueException(aggregateName, change.column().name(), change.value(), holder);
  }

  private static Map<String, AttributeValue> key(String pkey) {
    return Map.of(
        IndexKeys.PKEY, AttributeValue.fromS(pkey),
        IndexKeys.SKEY, AttributeValue.fromS(IndexKeys.UNIQUE_SORT_KEY));
  }
}
