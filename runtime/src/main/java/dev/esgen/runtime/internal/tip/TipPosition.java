package dev.esgen.runtime.internal.tip;

import dev.esgen.runtime.internal.storage.StreamPosition;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The tip layout's bookkeeping for a loaded stream: the events the tip holds, as stored. With them the
 * next append can tell whether the tip must calve and, if so, write the batch item, without reading
 * anything more.
 *
 * <pre>{@code
 * TipPosition position = (TipPosition) loaded.position();
 * long firstIndexInTip = loaded.seqNr() - position.events().size();
 * }</pre>
 *
 * @param events the tip's events (maps of timestamp and body), oldest first
 * @param cases their stored type names, parallel to {@code events}
 */
public record TipPosition(List<AttributeValue> events, List<AttributeValue> cases)
    implements StreamPosition {

  public TipPosition {
    events = List.copyOf(events);
    cases = List.copyOf(cases);
    if (events.size() != cases.size()) {
      throw new IllegalArgumentException(events.size() + " events but " + cases.size() + " cases");
    }
  }
}
