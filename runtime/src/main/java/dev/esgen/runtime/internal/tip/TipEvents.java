package dev.esgen.runtime.internal.tip;

import static dev.esgen.runtime.internal.tip.TipAttributes.DATA;
import static dev.esgen.runtime.internal.tip.TipAttributes.EVENT_VERSION;
import static dev.esgen.runtime.internal.tip.TipAttributes.METADATA;
import static dev.esgen.runtime.internal.tip.TipAttributes.TIMESTAMP;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.error.EventDecodingException;
import dev.esgen.runtime.history.RecordedEvent;
import dev.esgen.runtime.internal.item.MetadataAttributes;
import dev.esgen.runtime.internal.storage.StoredEventDecoder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads the events out of the event lists of a tip or batch item, as loads, event histories and the
 * change feed all need them: through {@link StoredEventDecoder}, so the upcasters run wherever an event
 * is read.
 *
 * <pre>{@code
 * // the events the latest write added to a tip: the last "a" of "e" (none when "e" is empty: that
 * // append wrote them straight to a batch item, whose record carries them)
 * long next = Long.parseLong(tip.get(TipAttributes.NEXT).n());
 * long appended = Long.parseLong(tip.get(TipAttributes.APPENDED).n());
 * List<AttributeValue> e = tip.get(TipAttributes.EVENTS).l();
 * List<RecordedEvent<CartEvent>> added = TipEvents.recorded(definition, aid, next - e.size(), e,
 *     tip.get(TipAttributes.CASES).l(), next - appended + 1, next);
 * }</pre>
 */
public final class TipEvents {

  private TipEvents() {}

  /**
   * The events stored in {@code events} (with their type names in {@code cases}, the first at index
   * {@code first}, i.e. seq_nr {@code first + 1}) whose seq_nr lies within {@code from .. to}, as they
   * stand now, each with its stored seq_nr, time and metadata, under its current type name.
   *
   * @throws EventDecodingException when one cannot be read
   */
  public static <E> List<RecordedEvent<E>> recorded(AggregateDefinition<?, ?, E> definition, String aid,
      long first, List<AttributeValue> events, List<AttributeValue> cases, long from, long to) {
    List<RecordedEvent<E>> recorded = new ArrayList<>();
    for (int k = 0; k < events.size(); k++) {
      long seqNr = first + k + 1;
      if (seqNr < from || seqNr > to) {
        continue;
      }
      Map<String, AttributeValue> map = events.get(k).hasM() ? events.get(k).m() : Map.of();
      List<E> decoded = events(definition, aid, seqNr, cases.get(k), events.get(k));
      AttributeValue at = map.get(TIMESTAMP);
      recorded.addAll(StoredEventDecoder.recorded(definition, aid, seqNr, cases.get(k).s(), map.get(EVENT_VERSION),
          at == null ? null : at.s(), map.get(METADATA), MetadataAttributes.TIP, decoded));
    }
    return recorded;
  }

  /** The events the stored event {@code seqNr} (type name {@code type}, map {@code event}) stands for now. */
  static <E> List<E> events(
      AggregateDefinition<?, ?, E> definition, String aid, long seqNr, AttributeValue type, AttributeValue event) {
    AttributeValue data = event.hasM() ? event.m().get(DATA) : null;
    if (type.s() == null || data == null || data.b() == null) {
      throw new EventDecodingException(definition.name(), aid, seqNr, type.s() == null ? "<missing>" : type.s(),
          new IOException("the stored event has no type or no binary " + DATA + " attribute"));
    }
    int version = StoredEventDecoder.version(event.m().get(EVENT_VERSION), definition, aid, seqNr, type.s());
    return StoredEventDecoder.decode(definition, aid, seqNr, type.s(), version, data.b().asByteArrayUnsafe());
  }
}
