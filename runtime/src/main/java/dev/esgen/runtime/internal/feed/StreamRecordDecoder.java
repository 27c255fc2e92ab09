package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.error.StreamRecordDecodingException;
import dev.esgen.runtime.internal.journal.JournalAttributes;
import dev.esgen.runtime.internal.tip.TipAttributes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

/**
 * Turns a DynamoDB Streams record of the journal or the tip table into the events of the item it wrote
 * (see {@link EventItems}). Removals, items that are no events and items of aggregate types nobody
 * registered yield nothing; a record that should hold events but does not throws.
 *
 * <pre>{@code
 * StreamRecordDecoder decoder = new StreamRecordDecoder(Set.of("bank-account")::contains);
 * Optional<StoredEvents> events = decoder.decode(record);
 * }</pre>
 */
public final class StreamRecordDecoder {

  private final Predicate<String> registered;

  /** @param registered says which aggregate types' events are wanted */
  public StreamRecordDecoder(Predicate<String> registered) {
    this.registered = registered;
  }

  /**
   * The events {@code record} carries, or empty when it carries none anybody registered for.
   *
   * @throws StreamRecordDecodingException when the record belongs to a registered aggregate type but is
   *     no event item esgen writes, or has no new image
   */
  public Optional<StoredEvents> decode(Record record) {
    StreamRecord change = record.dynamodb();
    if (record.eventName() == OperationType.REMOVE || change == null || !change.hasKeys()) {
      return Optional.empty();
    }
    Optional<String> aggregate = EventItems.aggregateOf(change.keys()).filter(registered);
    if (aggregate.isEmpty()) {
      return Optional.empty();
    }
    if (!change.hasNewImage()) {
      throw new StreamRecordDecodingException(record.eventID(), change.sequenceNumber(),
          describe(aggregate.get(), change.keys()),
          "the record has no new image; enable the table's stream with view type NEW_IMAGE");
    }
    try {
      return EventItems.parse(change.newImage(), registered);
    } catch (ItemShapeException e) {
      throw new StreamRecordDecodingException(record.eventID(), change.sequenceNumber(),
          e.aggregateName() + " " + e.aggregateId(), e.problem());
    }
  }

  /**
   * The item's keys, hash key first, e.g. {@code counter item [counter-3, counter-42-00000000000000000007]}:
   * an event item's keys hold the aggregate type, the id and the seq_nr, no stored value.
   */
  private static String describe(String aggregate, Map<String, AttributeValue> keys) {
    List<String> names = keys.containsKey(JournalAttributes.PKEY)
        ? List.of(JournalAttributes.PKEY, JournalAttributes.SKEY)
        : List.of(TipAttributes.STREAM, TipAttributes.INDEX);
    return aggregate + " item " + names.stream()
        .map(keys::get)
        .map(key -> key.s() != null ? key.s() : key.n())
        .toList();
  }
}
