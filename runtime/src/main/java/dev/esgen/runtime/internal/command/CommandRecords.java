package dev.esgen.runtime.internal.command;

import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.InvalidCommandIdException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.internal.item.ItemSize;
import dev.esgen.runtime.internal.keys.IndexKeys;
import dev.esgen.runtime.internal.keys.KeyStrings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The command records of idempotent commands, in the snapshot table for both layouts: one item per
 * command id that was applied to a stream, written in the same atomic write as the command's events.
 *
 * <p>Key: {@code pkey = {aggregate-name}#{aid}}, {@code skey = command#{command id}}. Aggregate names
 * cannot hold {@code #}, so a key belongs to exactly one stream; the sort key prefix keeps command
 * records apart from unique-value reservations ({@code skey = unique}) and head rows (whose
 * {@code pkey} has no {@code #}). Attributes: {@code aid}, {@link #VERSION} and {@link #SEQ_NR} of the
 * stream after the command, its {@link #APPEND_ID} and {@link #RECORDED_AT}. The Put is conditioned on
 * the record not existing, so of two concurrent tries of one command exactly one is stored. Records
 * are kept as long as the table: a repeat is recognised however late it comes.
 *
 * <pre>{@code
 * CommandRecords commands = new CommandRecords("snapshot");
 * transaction.add(commands.put("bank-account", aid, "deposit-42", appendId, 8, 12, now));
 * Optional<CommandRecord> done = commands.find(client, "bank-account", aid, "deposit-42");
 * }</pre>
 */
public final class CommandRecords {

  /** The longest command id, in UTF-8 bytes. */
  public static final int MAX_COMMAND_ID_BYTES = 128;

  /** The sort key prefix of command records. */
  public static final String SORT_KEY_PREFIX = "command#";

  /** The stream's version after the command (N). */
  public static final String VERSION = "version";

  /** The stream's last seq_nr after the command (N). */
  public static final String SEQ_NR = "seq_nr";

  /** The append id of the command's append (S). */
  public static final String APPEND_ID = "append_id";

  /** When the command was stored, ISO-8601 from the store's clock (S). */
  public static final String RECORDED_AT = "recorded_at";

  private final String table;

  public CommandRecords(String table) {
    this.table = Objects.requireNonNull(table, "table");
  }

  /**
   * Refuses a command id that cannot be stored.
   *
   * @throws InvalidCommandIdException when {@code commandId} is null, empty, longer than
   *     {@value #MAX_COMMAND_ID_BYTES} bytes in UTF-8, or has no UTF-8 form ({@link KeyStrings})
   */
  public static String check(String aggregateName, String commandId) {
    if (commandId == null || commandId.isEmpty()) {
      throw new InvalidCommandIdException(aggregateName, "a command id must not be " + (commandId == null ? "null" : "empty"));
    }
    int unpaired = KeyStrings.unpairedSurrogate(commandId);
    if (unpaired >= 0) {
      throw new InvalidCommandIdException(aggregateName,
          "a command id must be well-formed Unicode; " + KeyStrings.unpairedSurrogateReason(unpaired));
    }
    int bytes = commandId.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_COMMAND_ID_BYTES) {
      throw new InvalidCommandIdException(aggregateName,
          "a command id may have at most " + MAX_COMMAND_ID_BYTES + " bytes in UTF-8, this one has " + bytes);
    }
    return commandId;
  }

  /** The Put, for the append's transaction, that records {@code commandId} as applied. */
  public TransactWriteItem put(String aggregateName, String aid, String commandId, String appendId, long version,
      long seqNr, Instant now) {
    return TransactWriteItem.builder()
        .put(Put.builder()
            .tableName(table)
            .item(item(aggregateName, aid, commandId, appendId, version, seqNr, now))
            .conditionExpression("attribute_not_exists(#pkey)")
            .expressionAttributeNames(Map.of("#pkey", IndexKeys.PKEY))
            .build())
        .build();
  }

  /** The size of the record, for the transaction's size check. */
  public static long itemSize(String aggregateName, String aid, String commandId, String appendId, long version,
      long seqNr, Instant now) {
    return ItemSize.of(item(aggregateName, aid, commandId, appendId, version, seqNr, now));
  }

  /**
   * The record of {@code commandId} on stream {@code aid}, read with strong consistency.
   *
   * @throws MissingTableException when the table does not exist
   */
  public Optional<CommandRecord> find(DynamoDbClient client, String aggregateName, String aid, String commandId) {
    GetItemResponse response;
    try {
      response = client.getItem(findRequest(aggregateName, aid, commandId));
    } catch (ResourceNotFoundException e) {
      throw missingTable(e);
    }
    return found(aggregateName, aid, commandId, response);
  }

  /** The strongly consistent read of the record of {@code commandId} on stream {@code aid}. */
  public GetItemRequest findRequest(String aggregateName, String aid, String commandId) {
    return GetItemRequest.builder().tableName(table).key(key(aggregateName, aid, commandId)).consistentRead(true).build();
  }

  /** The error for the table of command records missing. */
  public MissingTableException missingTable(ResourceNotFoundException e) {
    return new MissingTableException(List.of(table), e);
  }

  /**
   * The record of {@code commandId} on stream {@code aid} that {@link #findRequest}'s {@code response}
   * holds, if any.
   *
   * @throws CorruptStreamException when its time is no ISO-8601 instant
   */
  public static Optional<CommandRecord> found(String aggregateName, String aid, String commandId,
      GetItemResponse response) {
    if (!response.hasItem() || response.item().isEmpty()) {
      return Optional.empty();
    }
    Map<String, AttributeValue> item = response.item();
    return Optional.of(new CommandRecord(commandId, number(item, VERSION), number(item, SEQ_NR),
        item.containsKey(APPEND_ID) ? item.get(APPEND_ID).s() : "",
        item.containsKey(RECORDED_AT)
            ? recordedAt(aggregateName, aid, commandId, item.get(RECORDED_AT))
            : Instant.EPOCH));
  }

  /**
   * The stored time of a command record. The JDK's parse error quotes the stored text, so it is replaced
   * by an error naming the stream, the command and the attribute, without a cause.
   */
  private static Instant recordedAt(String aggregateName, String aid, String commandId, AttributeValue stored) {
    try {
      return Instant.parse(stored.s());
    } catch (RuntimeException unreadable) {
      throw new CorruptStreamException(aggregateName, aid, "the record of command '" + commandId + "' has no"
          + " ISO-8601 " + RECORDED_AT + " attribute (" + unreadable.getClass().getSimpleName() + ")");
    }
  }

  private static Map<String, AttributeValue> key(String aggregateName, String aid, String commandId) {
    return Map.of(
        IndexKeys.PKEY, AttributeValue.fromS(aggregateName + IndexKeys.SEPARATOR + aid),
        IndexKeys.SKEY, AttributeValue.fromS(SORT_KEY_PREFIX + commandId));
  }

  private static Map<String, AttributeValue> item(String aggregateName, String aid, String commandId,
      String appendId, long version, long seqNr, Instant now) {
    Map<String, AttributeValue> item = new HashMap<>(key(aggregateName, aid, commandId));
    item.put(IndexKeys.AID, AttributeValue.fromS(aid));
    item.put(VERSION, AttributeValue.fromN(Long.toString(version)));
    item.put(SEQ_NR, AttributeValue.fromN(Long.toString(seqNr)));
    item.put(APPEND_ID, AttributeValue.fromS(appendId));
    item.put(RECORDED_AT, AttributeValue.fromS(now.toString()));
    return item;
  }

  private static long number(Map<String, AttributeValue> item, String attribute) {
    AttributeValue value = item.get(attribute);
    return value == null || value.n() == null ? 0 : Long.parseLong(value.n());
  }
}
