package dev.esgen.runtime.internal.item;

import dev.esgen.runtime.history.EventMetadata;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Event metadata as a DynamoDB map attribute, under the names a layout chooses: the journal spells
 * them out, the tip uses two letters because every name in every event counts against its item's size.
 *
 * <pre>{@code
 * MetadataAttributes.JOURNAL.toAttribute(metadata);      // {correlation_id=..., actor=...}
 * EventMetadata back = MetadataAttributes.TIP.fromAttribute(event.m().get("m"));
 * }</pre>
 *
 * @param correlationId the name of the correlation id inside the map
 * @param causationId the name of the causation id
 * @param actor the name of the actor
 * @param attributes the name of the map of further attributes
 */
public record MetadataAttributes(String correlationId, String causationId, String actor, String attributes) {

  /** The journal's names. */
  public static final MetadataAttributes JOURNAL =
      new MetadataAttributes("correlation_id", "causation_id", "actor", "attributes");

  /** The tip's names. */
  public static final MetadataAttributes TIP = new MetadataAttributes("co", "ca", "ac", "at");

  /** {@code metadata} as a map attribute; call only for metadata that is not empty. */
  public AttributeValue toAttribute(EventMetadata metadata) {
    Map<String, AttributeValue> map = new HashMap<>();
    metadata.correlationId().ifPresent(v -> map.put(correlationId, AttributeValue.fromS(v)));
    metadata.causationId().ifPresent(v -> map.put(causationId, AttributeValue.fromS(v)));
    metadata.actor().ifPresent(v -> map.put(actor, AttributeValue.fromS(v)));
    if (!metadata.attributes().isEmpty()) {
      Map<String, AttributeValue> more = new HashMap<>();
      metadata.attributes().forEach((name, value) -> more.put(name, AttributeValue.fromS(value)));
      map.put(attributes, AttributeValue.fromM(more));
    }
    return AttributeValue.fromM(map);
  }

  /** The metadata {@code stored} holds; {@link EventMetadata#none()} when the event has none. */
  public EventMetadata fromAttribute(AttributeValue stored) {
    if (stored == null || !stored.hasM()) {
      return EventMetadata.none();
    }
    Map<String, AttributeValue> map = stored.m();
    Map<String, String> more = new HashMap<>();
    AttributeValue storedMore = map.get(attributes);
    if (storedMore != null && storedMore.hasM()) {
      storedMore.m().forEach((name, value) -> more.put(name, value.s()));
    }
    return new EventMetadata(string(map, correlationId), string(map, causationId), string(map, actor), more);
  }

  private static Optional<String> string(Map<String, AttributeValue> map, String name) {
    AttributeValue value = map.get(name);
    return value == null ? Optional.empty() : Optional.ofNullable(value.s());
  }
}
