package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.history.EventMetadata;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The one way a stored event is read back, whichever layout or reader found it: the aggregate's event
 * codec runs the upcasters from the stored version on, and every failure becomes an
 * {@link EventDecodingException} naming the aggregate, the stream, the seq_nr, the stored type and version,
 * never the stored body.
 *
 * <pre>{@code
 * List<AccountEvent> now = StoredEventDecoder.decode(definition, "42", 17, "money-deposited", 1, body);
 * }</pre>
 */
public final class StoredEventDecoder {

  private StoredEventDecoder() {}

  /**
   * The events the stored event {@code seqNr} of stream {@code aggregateId} stands for now: one, several
   * for a split type, none for a dropped one, in order.
   *
   * @param typeName the stored type name
   * @param version the stored version; 1 for an event stored without one
   * @param body the stored JSON body
   * @throws EventDecodingException when the event cannot be read
   */
  public static <E> List<E> decode(AggregateDefinition<?, ?, E> definition, String aggregateId, long seqNr,
      String typeName, int version, byte[] body) {
    try {
      // copyOf: an upcaster's list may be mutable or hold a null, which must fail here, not in a handler
      return List.copyOf(definition.eventCodec().decodeStored(typeName, version, body));
    } catch (IOException | RuntimeException e) {
      throw new EventDecodingException(definition.name(), aggregateId, seqNr, typeName, version, e);
    }
  }

  /**
   * {@code events}, what the stored event {@code seqNr} of stream {@code aggregateId} (type {@code typeName},
   * version attribute {@code storedVersion}) stands for now, as the history and the change feed report
   * them: each with the stored seq_nr, time and metadata, under its current type name.
   *
   * @param recordedAt the stored ISO-8601 time, null when the item has none (the epoch then)
   * @param metadata the stored metadata map, null when the append carried none
   * @param names the metadata attribute names of the layout that stored it
   * @throws EventDecodingException when the time or the metadata cannot be read; a JDK parse error quotes
   *     the stored text, which the exception keeps out of its message and its cause's
   */
  public static <E> List<RecordedEvent<E>> recorded(AggregateDefinition<?, ?, E> definition, String aggregateId,
      long seqNr, String typeName, AttributeValue storedVersion, String recordedAt, AttributeValue metadata,
      MetadataAttributes names, List<E> events) {
    Instant at;
    EventMetadata stored;
    try {
      at = recordedAt == null ? Instant.EPOCH : Instant.parse(recordedAt);
      stored = names.fromAttribute(metadata);
    } catch (RuntimeException e) {
      throw new EventDecodingException(definition.name(), aggregateId, seqNr, typeName,
          version(storedVersion, definition, aggregateId, seqNr, typeName), e);
    }
    List<RecordedEvent<E>> recorded = new ArrayList<>(events.size());
    for (E event : events) {
      recorded.add(new RecordedEvent<>(definition.name(), aggregateId, seqNr, definition.eventCodec().typeName(event),
          at, stored, event));
    }
    return recorded;
  }

  /**
   * The version a stored event's version attribute says: 1 when it is absent, since events are written
   * at version 1 without one, and were before versions existed.
   *
   * @throws EventDecodingException when it is no whole number from 1
   */
  public static int version(AttributeValue stored, AggregateDefinition<?, ?, ?> definition, String aggregateId,
      long seqNr, String typeName) {
    if (stored == null) {
      return 1;
    }
    try {
      int version = Integer.parseInt(stored.n());
      if (version < 1) {
        throw new IOException("a stored event version is below 1");
      }
      return version;
    } catch (IOException | RuntimeException e) {
      throw new EventDecodingException(definition.name(), aggregateId, seqNr, typeName, e);
    }
  }

  /** The version attribute to store for an event of {@code version}: none for version 1. */
  public static AttributeValue versionAttribute(int version) {
    return version == 1 ? null : AttributeValue.fromN(Integer.toString(version));
  }
}
