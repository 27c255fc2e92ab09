package dev.esgen.runtime.tip;

import dev.esgen.runtime.storage.StreamPosition;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The tip layout's bookkeeping for a loaded stream: the events the tip holds, as stored. With them the
 * next append can tell whether the tip must calve and, if so, write the batch item, without reading
 * anything more. The recent etags let the next append rewrite the bounded etag history
 * ({@link TipAttributes#RECENT_ETAGS}) in the same update that is conditioned on the loaded version.
 *
 * <pre>{@code
 * TipPosition position = (TipPosition) loaded.position();
 * long firstIndexInTip = loaded.seqNr() - position.events().size();
 * }</pre>
 *
 * @param events the tip's events (maps of timestamp and body), oldest first
 * @param cases their stored type names, parallel to {@code events}
 * @param recentEtags the etags of the latest appends as stored, oldest first
 */
public record TipPosition(List<AttributeValue> events, List<AttributeValue> cases, List<String> recentEtags)
    implements StreamPosition {

  public TipPosition {
    events = List.copyOf(events);
    cases = List.copyOf(cases);
    recentEtags = List.copyOf(recentEtags);
    if (events.size() != cases.size()) {
      throw new IllegalArgumentException(events.size() + " events but " + cases.size() + " cases");
    }
  }
}
