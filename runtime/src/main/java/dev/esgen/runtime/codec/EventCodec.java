package dev.esgen.runtime.codec;

import java.io.IOException;

/**
 * Turns one aggregate's events into stored bytes and back.
 *
 * <p>The processor generates an implementation per aggregate ({@code FooEventCodec}) that dispatches
 * over the sealed event hierarchy by stored type name, so no class names end up in stored data.
 *
 * <pre>{@code
 * EventCodec<AccountEvent> codec = new BankAccountEventCodec(EsgenJson.newObjectMapper());
 * byte[] body = codec.encode(event);
 * AccountEvent back = codec.decode(codec.typeName(event), body);
 * }</pre>
 *
 * @param <E> the sealed root of the aggregate's events
 */
public interface EventCodec<E> {

  /** The stored type name of {@code event} (its {@code @EventType} or simple class name). */
  String typeName(E event);

  /** The event's JSON body. */
  byte[] encode(E event) throws IOException;

  /**
   * Reads an event stored under {@code typeName}.
   *
   * @throws IOException when the body is not a valid event of that type
   * @throws IllegalArgumentException when {@code typeName} is not one of this aggregate's event types
   */
  E decode(String typeName, byte[] body) throws IOException;
}
