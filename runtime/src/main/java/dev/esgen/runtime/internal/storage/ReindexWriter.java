package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.ItemTooLargeException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.index.IndexBackfill;
import dev.esgen.runtime.internal.index.IndexChanges.SlotChange;
import dev.esgen.runtime.internal.index.IndexChanges.UniqueChange;
import dev.esgen.runtime.internal.index.IndexChanges;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.item.AttributeUpdate;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.retry.AmbiguousWriteException;
import dev.esgen.runtime.internal.retry.Failures;
import dev.esgen.runtime.internal.retry.RetryBudget;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * Writes a {@link StorageLayout#reindex} for either layout: the index slots on the item that carries the
 * stream's version (the journal's head row, the tip) and the reservations of the state's unique values,
 * conditioned on that version. The layouts differ only in that item's table, key and version attribute,
 * and in what else they set on it.
 *
 * <p>Without a unique value this is one {@code UpdateItem}; with one it is a {@code TransactWriteItems}
 * of the update (or, when there is no slot to write, a {@code ConditionCheck} of the version) and one
 * reservation {@code Put} per value, so that a value another aggregate holds cancels the whole write.
 *
 * <pre>{@code
 * ReindexWriter writer = new ReindexWriter(client, config.snapshotTable(), recorder::currentBudget);
 * writer.write(new ReindexWriter.Target("bank-account", "42", 7, table, headKey, "version", Map.of()),
 *     IndexBackfill.of("bank-account", columns, account));
 * }</pre>
 */
public final class ReindexWriter {

  private static final String VERSION_CONDITION = "#version = :version";

  private final DynamoDbClient client;
  private final String snapshotTable;
  private final UniqueReservations reservations;
  private final Supplier<RetryBudget> budget;

  /**
   * @param snapshotTable the table of the reservation items (the snapshot table, for both layouts)
   * @param budget the retry budget of the operation running on the calling thread
   */
  public ReindexWriter(DynamoDbClient client, String snapshotTable, Supplier<RetryBudget> budget) {
    this.client = Objects.requireNonNull(client, "client");
    this.snapshotTable = Objects.requireNonNull(snapshotTable, "snapshotTable");
    this.reservations = new UniqueReservations(snapshotTable);
    this.budget = Objects.requireNonNull(budget, "budget");
  }

  /**
   * The item that carries a stream's version, and what to write on it besides the slots.
   *
   * @param aggregateName the aggregate type, for errors
   * @param aid the aggregate's id string; the reservations' holder
   * @param version the version the write is conditioned on
   * @param table the item's table
   * @param key the item's key
   * @param versionAttribute the attribute holding the version on the item
   * @param alsoSet further attributes to set on the item in the same write
   * @param storedAttributeBytes the size of each attribute the item holds, as loaded, so that a write that
   *     would take it past DynamoDB's item limit is refused before it is sent; empty when not known
   */
  public record Target(String aggregateName, String aid, long version, String table,
      Map<String, AttributeValue> key, String versionAttribute, Map<String, AttributeValue> alsoSet,
      Map<String, Long> storedAttributeBytes) {

    public Target {
      key = Map.copyOf(key);
      alsoSet = Map.copyOf(alsoSet);
      storedAttributeBytes = Map.copyOf(storedAttributeBytes);
    }

    /** A target whose stored attribute sizes are not known: its size is left to DynamoDB to check. */
    public Target(String aggregateName, String aid, long version, String table, Map<String, AttributeValue> key,
        String versionAttribute, Map<String, AttributeValue> alsoSet) {
      this(aggregateName, aid, version, table, key, versionAttribute, alsoSet, Map.of());
    }
  }

  /**
   * Writes {@code all} (from {@link IndexBackfill#of}) to {@code target}, atomically and conditioned on
   * its version; writes nothing when there is nothing to write.
   *
   * @throws ItemTooLargeException when the slots would take the item past 400 KB (checked when the target
   *     knows its stored attribute sizes); nothing is written
   * @throws VersionConflictException when the item is not at the version (or gone)
   * @throws dev.esgen.runtime.error.DuplicateValueException when another aggregate holds a unique value
   * @throws MissingTableException when a table does not exist
   */
  public void write(Target target, IndexChanges all) {
    AttributeUpdate update = new AttributeUpdate();
    target.alsoSet().forEach(update::set);
    for (SlotChange slot : all.slots()) {
      String attribute = IndexKeys.slotAttribute(slot.slot());
      slot.key().ifPresentOrElse(key -> update.set(attribute, AttributeValue.fromS(key)), () -> update.remove(attribute));
    }
    if (!target.storedAttributeBytes().isEmpty()) {
      long size = update.sizeAfter(target.storedAttributeBytes());
      if (size > ItemTooLargeException.LIMIT_BYTES) {
        throw new ItemTooLargeException(target.aggregateName(), target.aid(),
            "index values of version " + target.version(), size);
      }
    }
    if (all.reservations().isEmpty()) {
      if (!update.isEmpty()) {
        Update versioned = versioned(target, update);
        sendIdempotent(target, () -> updateOnce(target, versioned), failure -> updateFailure(target, failure));
      }
      return;
    }
    AppendTransaction transaction = new AppendTransaction(target.aggregateName(), target.aid());
    transaction.addVersioned("index values of version " + target.version(),
        update.isEmpty()
            ? versionCheck(target)
            : TransactWriteItem.builder().update(versioned(target, update)).build(),
        0);
    for (UniqueChange reservation : all.reservations()) {
      transaction.addReservation(reservation, reservations.reserve(reservation, target.aid()),
          UniqueReservations.itemSize(reservation, target.aid()));
    }
    transaction.checkLimits();
    List<String> tables = target.table().equals(snapshotTable) ? List.of(snapshotTable) : List.of(target.table(), snapshotTable);
    Function<RuntimeException, RuntimeException> translate = failure -> {
      if (failure instanceof TransactionCanceledException cancelled) {
        return transaction.toException(cancelled, target.version(), false, target.versionAttribute());
      }
      return failure instanceof ResourceNotFoundException missing ? new MissingTableException(tables, missing) : failure;
    };
    sendIdempotent(target, () -> {
      try {
        client.transactWriteItems(b -> b.transactItems(transaction.items()));
      } catch (TransactionCanceledException | ResourceNotFoundException e) {
        throw translate.apply(e);
      }
    }, translate);
  }

  /**
   * Runs {@code write} until it is known to be stored. A reindex writes the same values whenever it is
   * sent and changes no version, so a write whose outcome is unknown is simply sent again, within the
   * operation's retry budget; a failure that answers for certain after such an attempt is reported as
   * {@code translate} makes it, as the same failure of a first attempt is.
   */
  private void sendIdempotent(Target target, Runnable write, Function<RuntimeException, RuntimeException> translate) {
    RetryBudget retries = budget.get();
    while (true) {
      try {
        write.run();
        return;
      } catch (AmbiguousWriteException e) {
        RuntimeException last = e.lastFailure();
        FailureKind kind = Failures.classify(last);
        if (kind == FailureKind.VERSION_CONFLICT || kind == FailureKind.FATAL) {
          throw translate.apply(last);
        }
        if (!retries.retry(kind, last)) {
          throw new StoreUnavailableException("reindex of " + target.aggregateName() + " " + target.aid() + " on ["
              + target.table() + "]", retries.failedAttempts(), kind, Failures.describe(last), last);
        }
      }
    }
  }

  private void updateOnce(Target target, Update update) {
    try {
      client.updateItem(b -> b
          .tableName(update.tableName())
          .key(update.key())
          .updateExpression(update.updateExpression())
          .conditionExpression(update.conditionExpression())
          .expressionAttributeNames(update.expressionAttributeNames())
          .expressionAttributeValues(update.expressionAttributeValues())
          .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
    } catch (ConditionalCheckFailedException | ResourceNotFoundException e) {
      throw updateFailure(target, e);
    }
  }

  /** What a failed update of the target's item means: a conflict, a missing table, or {@code failure} itself. */
  private static RuntimeException updateFailure(Target target, RuntimeException failure) {
    if (failure instanceof ConditionalCheckFailedException e) {
      AttributeValue stored = e.hasItem() ? e.item().get(target.versionAttribute()) : null;
      OptionalLong actual = stored == null || stored.n() == null
          ? OptionalLong.empty()
          : OptionalLong.of(Long.parseLong(stored.n()));
      return new VersionConflictException(target.aggregateName(), target.aid(), target.version(), actual, 1, e);
    }
    return failure instanceof ResourceNotFoundException missing
        ? new MissingTableException(List.of(target.table()), missing)
        : failure;
  }

  /** {@code update}, not empty, conditioned on the target's version. */
  private static Update versioned(Target target, AttributeUpdate update) {
    return update.toUpdate(target.table(), target.key(), VERSION_CONDITION, versionName(target), versionValue(target));
  }

  /**
   * Only the version to check, when the state has unique values but no slot to write: the reservations
   * still must not be taken for a state a concurrent append has since changed.
   */
  private static TransactWriteItem versionCheck(Target target) {
    return TransactWriteItem.builder()
        .conditionCheck(ConditionCheck.builder()
            .tableName(target.table())
            .key(target.key())
            .conditionExpression(VERSION_CONDITION)
            .expressionAttributeNames(versionName(target))
            .expressionAttributeValues(versionValue(target))
            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
            .build())
        .build();
  }

  private static Map<String, String> versionName(Target target) {
    return Map.of("#version", target.versionAttribute());
  }

  private static Map<String, AttributeValue> versionValue(Target target) {
    return Map.of(":version", AttributeValue.fromN(Long.toString(target.version())));
  }
}
