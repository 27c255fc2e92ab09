package dev.esgen.testkit.memory;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * An event in the form a store keeps it: its stored type name, the version of its stored shape and its JSON
 * body, as code of any age wrote it. What a test seeds a store with ({@link InMemoryEventStore#seed}) or
 * gives a fixture ({@code AggregateFixture.givenStored}) to prove that today's upcasters read what older
 * code stored, without DynamoDB.
 *
 * <pre>{@code
 * store.seed(meters.definition(), id,
 *     new StoredEvent("installed", 1, "{\"id\":{\"value\":\"m-1\"}}"),
 *     new StoredEvent("reading-taken", 1, "{\"kwh\":3}"));       // version 1 stored kilowatt-hours
 * assertEquals(3_000, meters.load(id).wattHours());
 * }</pre>
 *
 * @param type the stored type name: a current {@code @EventType} name, an alias, or a retired type's name
 * @param version the version of the stored shape, from 1 (what every event stored without a version is)
 * @param json the stored body
 */
public record StoredEvent(String type, int version, String json) {

  /**
   * Checks the type name and the version.
   *
   * @throws IllegalArgumentException when {@code type} is empty or {@code version} is below 1
   */
  public StoredEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(json, "json");
    if (type.isEmpty()) {
      throw new IllegalArgumentException("a stored event's type name must not be empty");
    }
    if (version < 1) {
      throw new IllegalArgumentException("a stored event's version is 1 or more, was " + version);
    }
  }

  /** The body as the codecs read it: UTF-8. */
  public byte[] body() {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
