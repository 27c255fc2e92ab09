package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.storage.StoredEventDecoder;
import java.io.IOException;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One event as an item of either layout holds it, not decoded yet: the change feed decodes an event only
 * when a projection is about to receive it, with that projection's definition of the aggregate, so that
 * events a projection has seen cost no decoding. It is decoded as the stream's history reads it: from
 * its stored name and version through the aggregate's upcasters, into the events it stands for now.
 *
 * <pre>{@code
 * StoredEvent stored = new StoredEvent(
 *     7, "money-deposited", null, "2026-11-23T10:15:30Z", null, body, MetadataAttributes.JOURNAL);
 * List<RecordedEvent<AccountEvent>> now = stored.decode(definition, "42");
 * }</pre>
 *
 * @param seqNr the event's position in its stream
 * @param eventType its stored type name, null when the item lacks it
 * @param version its stored version attribute, null for version 1
 * @param recordedAt when it was appended (ISO-8601), null when the item lacks it
 * @param metadata the stored metadata map, null when the append carried none
 * @param body the stored JSON body, null when the item lacks it
 * @param metadataNames the metadata attribute names of the layout that stored it
 */
public record StoredEvent(
    long seqNr, String eventType, AttributeValue version, String recordedAt, AttributeValue metadata,
    AttributeValue body, MetadataAttributes metadataNames) {

  /**
   * The events this stored event stands for now, decoded with {@code definition}'s generated codec: one,
   * several for a type an upcaster splits, none for one it drops; each with this event's seq_nr, under its
   * current type name.
   *
   * @throws EventDecodingException when the stored event lacks its type or body, or cannot be read
   */
  public <E> List<RecordedEvent<E>> decode(AggregateDefinition<?, ?, E> definition, String aggregateId) {
    if (eventType == null || body == null || body.b() == null) {
      throw new EventDecodingException(definition.name(), aggregateId, seqNr,
          eventType == null ? "<missing>" : eventType, new IOException("the stored event has no type or no binary body"));
    }
    int storedVersion = StoredEventDecoder.version(version, definition, aggregateId, seqNr, eventType);
    List<E> events = StoredEventDecoder.decode(
        definition, aggregateId, seqNr, eventType, storedVersion, body.b().asByteArrayUnsafe());
    return StoredEventDecoder.recorded(definition, aggregateId, seqNr, eventType, version, recordedAt, metadata,
        metadataNames, events);
  }
}
