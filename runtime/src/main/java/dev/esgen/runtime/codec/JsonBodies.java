package dev.esgen.runtime.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.esgen.runtime.error.ItemTooLargeException;
import java.io.IOException;
import java.util.Objects;

/**
 * A Jackson reader and writer for each of a fixed list of classes, addressed by the class's position in
 * the list: {@link JsonEventCodec} and {@link JsonSnapshotCodec}, the bases of the generated codecs, read
 * and write their JSON bodies through it, each event class at the place its generated dispatch finds it.
 *
 * <pre>{@code
 * JsonBodies bodies = new JsonBodies(EsgenJson.newObjectMapper(), AccountOpened.class, MoneyDeposited.class);
 * byte[] body = bodies.write(1, new MoneyDeposited(500));
 * MoneyDeposited back = bodies.read(1, body);
 * }</pre>
 *
 * <p>It reads every body it could have written: Jackson limits numbers to 1,000 characters and property
 * names to 50,000 when reading (by default) but not when writing, so a body holding a longer one would be
 * stored and then fail every load of its stream. The readers take the mapper's configuration with those
 * two limits raised to the largest item DynamoDB stores, unless the mapper's own are higher (or its
 * factory, a subclass that cannot be copied, keeps its own).
 *
 * <p>Immutable and thread-safe, as Jackson's readers and writers are.
 */
final class JsonBodies {

  private final ObjectReader[] readers;
  private final ObjectWriter[] writers;
  private final ObjectReader treeReader;

  /** Readers and writers of {@code classes} with {@code mapper}'s configuration, in that order. */
  JsonBodies(ObjectMapper mapper, Class<?>... classes) {
    Objects.requireNonNull(mapper, "mapper");
    JsonFactory reading = readingWhatAnItemHolds(mapper.getFactory());
    readers = new ObjectReader[classes.length];
    writers = new ObjectWriter[classes.length];
    for (int i = 0; i < classes.length; i++) {
      readers[i] = mapper.readerFor(classes[i]).with(reading);
      writers[i] = mapper.writerFor(classes[i]);
    }
    treeReader = mapper.reader().with(reading);
  }

  /** {@code factory}, or a copy of it whose number and name lengths are not limited below an item's size. */
  private static JsonFactory readingWhatAnItemHolds(JsonFactory factory) {
    int itemBytes = Math.toIntExact(ItemTooLargeException.LIMIT_BYTES);
    StreamReadConstraints limits = factory.streamReadConstraints();
    if (limits.getMaxNumberLength() >= itemBytes && limits.getMaxNameLength() >= itemBytes) {
      return factory;
    }
    JsonFactory copy;
    try {
      copy = factory.copy();
    } catch (IllegalStateException cannotCopy) {
      // A factory subclass that does not override copy(): it reads with its own limits, as the mapper does.
      return factory;
    }
    copy.setStreamReadConstraints(limits.rebuild()
        .maxNumberLength(Math.max(limits.getMaxNumberLength(), itemBytes))
        .maxNameLength(Math.max(limits.getMaxNameLength(), itemBytes))
        .build());
    return copy;
  }

  /** The JSON of {@code value}, written as the class at {@code index}. */
  byte[] write(int index, Object value) throws IOException {
    return writers[index].writeValueAsBytes(value);
  }

  /**
   * Reads {@code body} as the class at {@code index}.
   *
   * @param <T> that class, or a supertype of it
   * @throws IOException when {@code body} is no valid JSON of that class
   */
  <T> T read(int index, byte[] body) throws IOException {
    return readers[index].readValue(body);
  }

  /**
   * Reads {@code json}, a body an upcaster has turned into the current version, as the class at
   * {@code index}.
   *
   * @param <T> that class, or a supertype of it
   * @throws IOException when {@code json} is no valid JSON of that class
   */
  <T> T read(int index, JsonNode json) throws IOException {
    return readers[index].readValue(json);
  }

  /**
   * Reads {@code body} as a JSON tree, as upcasters take it.
   *
   * @throws IOException when {@code body} is no valid JSON
   */
  JsonNode readTree(byte[] body) throws IOException {
    return treeReader.readTree(body);
  }
}
