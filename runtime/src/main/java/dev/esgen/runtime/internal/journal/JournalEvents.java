package dev.esgen.runtime.internal.journal;

import static dev.esgen.runtime.internal.journal.JournalAttributes.AID;
import static dev.esgen.runtime.internal.journal.JournalAttributes.EVENT_TYPE;
import static dev.esgen.runtime.internal.journal.JournalAttributes.EVENT_VERSION;
import static dev.esgen.runtime.internal.journal.JournalAttributes.METADATA;
import static dev.esgen.runtime.internal.journal.JournalAttributes.OCCURRED_AT;
import static dev.esgen.runtime.internal.journal.JournalAttributes.PAYLOAD;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SEQ_NR;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.storage.StoredEventDecoder;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads the events out of one journal item, as loads, event histories and the change feed all need
 * them: through {@link StoredEventDecoder}, so the upcasters run wherever an event is read.
 *
 * <pre>{@code
 * List<RecordedEvent<AccountEvent>> events = JournalEvents.recorded(definition, newImage);
 * }</pre>
 */
public final class JournalEvents {

  private JournalEvents() {}

  /**
   * The events the journal item {@code item} stands for now, each with the item's seq_nr, time and
   * metadata, under its current type name: usually one, several for a split type, none for a dropped one.
   *
   * @throws CorruptStreamException when the item has no {@code aid} or {@code seq_nr}
   * @throws EventDecodingException when its event cannot be read
   */
  public static <E> List<RecordedEvent<E>> recorded(
      AggregateDefinition<?, ?, E> definition, Map<String, AttributeValue> item) {
    AttributeValue aidValue = item.get(AID);
    AttributeValue seqNrValue = item.get(SEQ_NR);
    if (aidValue == null || aidValue.s() == null || seqNrValue == null || seqNrValue.n() == null) {
      throw new CorruptStreamException(definition.name(), aidValue == null ? "?" : String.valueOf(aidValue.s()),
          "a journal item lacks " + AID + " or a numeric " + SEQ_NR);
    }
    String aid = aidValue.s();
    long seqNr = Long.parseLong(seqNrValue.n());
    List<E> events = events(definition, aid, seqNr, item);
    AttributeValue at = item.get(OCCURRED_AT);
    return StoredEventDecoder.recorded(definition, aid, seqNr, item.get(EVENT_TYPE).s(), item.get(EVENT_VERSION),
        at == null ? null : at.s(), item.get(METADATA), MetadataAttributes.JOURNAL, events);
  }

  /** The events the journal item {@code seqNr} of stream {@code aid} stands for now, in order. */
  static <E> List<E> events(
      AggregateDefinition<?, ?, E> definition, String aid, long seqNr, Map<String, AttributeValue> item) {
    AttributeValue type = item.get(EVENT_TYPE);
    AttributeValue payload = item.get(PAYLOAD);
    if (type == null || type.s() == null || payload == null || payload.b() == null) {
      String typeName = type == null || type.s() == null ? "<missing>" : type.s();
      throw new EventDecodingException(definition.name(), aid, seqNr, typeName, new IOException(
          "the journal item has no " + (type == null || type.s() == null ? EVENT_TYPE : PAYLOAD) + " attribute"));
    }
    int version = StoredEventDecoder.version(item.get(EVENT_VERSION), definition, aid, seqNr, type.s());
    return StoredEventDecoder.decode(definition, aid, seqNr, type.s(), version, payload.b().asByteArrayUnsafe());
  }
}
