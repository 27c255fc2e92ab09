package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import java.io.IOException;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One event as an item of either layout holds it, not decoded yet: the change feed decodes an event only
 * when a projection is about to receive it, with that projection's definition of the aggregate, so that
 * events a projection has seen cost no decoding.
 *
 * <pre>{@code
 * StoredEvent stored =
 *     new StoredEvent(7, "money-deposited", "2026-11-23T10:15:30Z", null, body, MetadataAttributes.JOURNAL);
 * RecordedEvent<AccountEvent> event = stored.decode(definition, "42");
 * }</pre>
 *
 * @param seqNr the event's position in its stream
 * @param eventType its stored type name, null when the item lacks it
 * @param recordedAt when it was appended (ISO-8601), null when the item lacks it
 * @param metadata the stored metadata map, null when the append carried none
 * @param body the stored JSON body, null when the item lacks it
 * @param metadataNames the metadata attribute names of the layout that stored it
 */
public record StoredEvent(
    long seqNr, String eventType, String recordedAt, AttributeValue metadata, AttributeValue body,
    MetadataAttributes metadataNames) {

  /**
   * The event decoded with {@code definition}'s generated codec.
   *
   * @throws EventDecodingException when the stored event lacks its type or body, or the codec refuses it
   */
  public <E> RecordedEvent<E> decode(AggregateDefinition<?, ?, E> definition, String aggregateId) {
    String type = eventType == null ? "<missing>" : eventType;
    try {
      if (eventType == null || body == null || body.b() == null) {
        throw new IOException("the stored event has no type or no binary body");
      }
      E event = definition.eventCodec().decode(type, body.b().asByteArrayUnsafe());
      Instant at = recordedAt == null ? Instant.EPOCH : Instant.parse(recordedAt);
      return new RecordedEvent<>(definition.name(), aggregateId, seqNr, eventType, at,
          metadataNames.fromAttribute(metadata), event);
    } catch (IOException | RuntimeException e) {
      throw new EventDecodingException(definition.name(), aggregateId, seqNr, type, e);
    }
  }
}
