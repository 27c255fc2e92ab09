package dev.esgen.runtime.history;

import dev.esgen.runtime.internal.keys.KeyStrings;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an append says about itself beside its events: the correlation id of the request or process it
 * belongs to, the causation id of the message that caused it, the actor who did it, and a small map of
 * further strings. Stored with every event of the append and returned with each {@link RecordedEvent}.
 * An append without metadata stores nothing for it. Every string must be well-formed Unicode (no half of
 * a surrogate pair without its other half, which has no UTF-8 form): anything else is refused with an
 * {@link IllegalArgumentException} when the metadata is made.
 *
 * <p>Metadata is given to a repository explicitly ({@code transact(id, options, decide)} with
 * {@code AppendOptions.metadata(...)}) or taken from the {@link EventContext} the calling thread runs in.
 *
 * <pre>{@code
 * EventMetadata metadata = EventMetadata.none()
 *     .withCorrelationId(request.id())
 *     .withActor(user.name())
 *     .with("channel", "web");
 * }</pre>
 *
 * @param correlationId the id shared by everything done for one request or process
 * @param causationId the id of the message or event that caused this append
 * @param actor who or what made the change
 * @param attributes further names (not empty) and values, at most {@value #MAX_ATTRIBUTES} and
 *     {@value #MAX_BYTES} bytes in all
 */
public record EventMetadata(
    Optional<String> correlationId, Optional<String> causationId, Optional<String> actor,
    Map<String, String> attributes) {

  /** The most attributes one append may carry. */
  public static final int MAX_ATTRIBUTES = 16;

  /** The most bytes (UTF-8) all names and values of one append's metadata may take. */
  public static final int MAX_BYTES = 2_048;

  private static final EventMetadata NONE = new EventMetadata(Optional.empty(), Optional.empty(), Optional.empty(),
      Map.of());

  /**
   * Checks the metadata against what an append may carry.
   *
   * @throws IllegalArgumentException past {@link #MAX_ATTRIBUTES} attributes or {@link #MAX_BYTES} bytes, for an
   *     empty attribute name, or a string that is not well-formed Unicode
   */
  public EventMetadata {
    Objects.requireNonNull(correlationId, "correlationId");
    Objects.requireNonNull(causationId, "causationId");
    Objects.requireNonNull(actor, "actor");
    attributes = Map.copyOf(attributes);
    if (attributes.size() > MAX_ATTRIBUTES) {
      throw new IllegalArgumentException("event metadata may hold at most " + MAX_ATTRIBUTES + " attributes, not "
          + attributes.size());
    }
    correlationId.ifPresent(v -> requireUtf8("correlation id", v));
    causationId.ifPresent(v -> requireUtf8("causation id", v));
    actor.ifPresent(v -> requireUtf8("actor", v));
    int bytes = bytes(correlationId) + bytes(causationId) + bytes(actor);
    for (Map.Entry<String, String> attribute : attributes.entrySet()) {
      // Stored as the keys of a DynamoDB map, which refuses an empty one in the middle of the append.
      if (attribute.getKey().isEmpty()) {
        throw new IllegalArgumentException("event metadata attribute names must not be empty");
      }
      requireUtf8("attribute name", attribute.getKey());
      requireUtf8("attribute value", attribute.getValue());
      bytes += attribute.getKey().getBytes(StandardCharsets.UTF_8).length
          + attribute.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (bytes > MAX_BYTES) {
      throw new IllegalArgumentException("event metadata may take at most " + MAX_BYTES + " bytes, this takes " + bytes);
    }
  }

  /** No metadata: what an append carries unless told otherwise. */
  public static EventMetadata none() {
    return NONE;
  }

  /** Whether there is nothing to store. */
  public boolean isEmpty() {
    return correlationId.isEmpty() && causationId.isEmpty() && actor.isEmpty() && attributes.isEmpty();
  }

  /** This metadata with {@code id} as the correlation id: the request or conversation the events belong to. */
  public EventMetadata withCorrelationId(String id) {
    return new EventMetadata(Optional.of(id), causationId, actor, attributes);
  }

  /** This metadata with {@code id} as the causation id: the command or message that caused the events. */
  public EventMetadata withCausationId(String id) {
    return new EventMetadata(correlationId, Optional.of(id), actor, attributes);
  }

  /** This metadata naming {@code who} acted: a user, a service, a job. */
  public EventMetadata withActor(String who) {
    return new EventMetadata(correlationId, causationId, Optional.of(who), attributes);
  }

  /** This metadata with attribute {@code name} set to {@code value}. */
  public EventMetadata with(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(attributes);
    more.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return new EventMetadata(correlationId, causationId, actor, more);
  }

  /**
   * This metadata with the gaps filled from {@code defaults}: a value set here wins, an attribute set in
   * both takes this one's value.
   */
  public EventMetadata orElse(EventMetadata defaults) {
    // Every append completes its metadata from the context, and mostly one side or both are empty:
    // the merge would build, copy and validate an equal record.
    if (defaults.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return defaults;
    }
    Map<String, String> merged = new LinkedHashMap<>(defaults.attributes);
    merged.putAll(attributes);
    return new EventMetadata(correlationId.or(defaults::correlationId), causationId.or(defaults::causationId),
        actor.or(defaults::actor), merged);
  }

  /**
   * Refuses a string with half of a surrogate pair but not its other half: it has no UTF-8 form, and once
   * stored the SDK cannot read back the items holding it, so the stream could no longer be loaded. The
   * message never quotes the value.
   */
  private static void requireUtf8(String what, String value) {
    int unpaired = KeyStrings.unpairedSurrogate(value);
    if (unpaired >= 0) {
      throw new IllegalArgumentException(
          "event metadata " + what + ": " + KeyStrings.unpairedSurrogateReason(unpaired));
    }
  }

  private static int bytes(Optional<String> value) {
    return value.map(v -> v.getBytes(StandardCharsets.UTF_8).length).orElse(0);
  }
}
