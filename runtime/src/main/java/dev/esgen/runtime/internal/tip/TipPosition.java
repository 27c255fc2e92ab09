package dev.esgen.runtime.internal.tip;

import dev.esgen.runtime.internal.storage.StreamPosition;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
 * @param tipAttributeBytes the size of each attribute of the tip item as stored, by name (keys included,
 *     {@code ItemSize.ofEach}), so that a reindex, which sets attributes on the tip and leaves the rest in
 *     place, is refused before it takes the item past DynamoDB's limit; empty when not known. Kept as given, not copied
 */
public record TipPosition(List<AttributeValue> events, List<AttributeValue> cases, Map<String, Long> tipAttributeBytes)
    implements StreamPosition {

  public TipPosition {
    events = List.copyOf(events);
    cases = List.copyOf(cases);
    // Kept, not copied: every append builds a position from sizes it has just measured, which nothing else
    // holds, and a copy cost a measurable share of an append's CPU.
    tipAttributeBytes = Collections.unmodifiableMap(tipAttributeBytes);
    if (events.size() != cases.size()) {
      throw new IllegalArgumentException(events.size() + " events but " + cases.size() + " cases");
    }
  }

  /** The position of a tip whose attribute sizes are not known (a stream not stored yet). */
  public TipPosition(List<AttributeValue> events, List<AttributeValue> cases) {
    this(events, cases, Map.of());
  }
}
