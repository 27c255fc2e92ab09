package dev.esgen.runtime.codec;

import java.io.IOException;
import java.util.List;

/**
 * Turns one aggregate's events into stored bytes and back.
 *
 * <p>The processor generates an implementation per aggregate ({@code FooRepository.EventCodec}) that stores each
 * event under its type's name, dispatching over the sealed event hierarchy, so no class names end up in
 * stored data. Each event is written at its type's current version ({@code @EventType(version = n)}); stored
 * events of an older version, or under an earlier name, are turned into current events by the upcasters on reading
 * ({@link #decodeStored}).
 *
 * <pre>{@code
 * EventCodec<AccountEvent> codec = new BankAccountRepository.EventCodec(EsgenJson.newObjectMapper());
 * byte[] body = codec.encode(event);
 * AccountEvent back = codec.decode(codec.typeName(event), body);
 * List<AccountEvent> upcast = codec.decodeStored("money-deposited", 1, storedBody);
 * }</pre>
 *
 * @param <E> the sealed root of the aggregate's events
 */
public interface EventCodec<E> {

  /** The stored type name of {@code event} (its {@code @EventType} or simple class name). */
  String typeName(E event);

  /**
   * The version {@code event}'s body is written at: its type's {@code @EventType(version = n)}. Codecs
   * without versions write version 1, which the layouts store as no version at all.
   */
  default int version(E event) {
    return 1;
  }

  /** The event's JSON body, of the current version. */
  byte[] encode(E event) throws IOException;

  /**
   * Reads an event that {@link #encode} wrote under {@code typeName}: a current name at its current
   * version.
   *
   * @throws IOException when the body is not a valid event of that type
   * @throws IllegalArgumentException when {@code typeName} is not one of this aggregate's event types
   */
  E decode(String typeName, byte[] body) throws IOException;

  /**
   * Reads an event as it was stored, under {@code typeName} (a current name, an alias, or the name of a
   * retired type) at {@code version}, running the upcasters from that version on. The result is what the
   * stored event stands for now: usually one event, several when its type was split, none when an
   * upcaster dropped it. This is what the layouts call for every stored event.
   *
   * <p>The default serves codecs without versions: version 1 is read with {@link #decode}.
   *
   * @throws IOException when the body is not valid for that type and version, or no upcaster reads
   *     that version
   * @throws IllegalArgumentException when {@code typeName} is not one this aggregate can read
   */
  default List<E> decodeStored(String typeName, int version, byte[] body) throws IOException {
    if (version != 1) {
      throw new IOException("this codec reads version 1 only, not version " + version);
    }
    return List.of(decode(typeName, body));
  }
}
