package dev.esgen.runtime.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The base of the event codec the processor generates for each aggregate ({@code FooRepository.EventCodec}):
 * events stored as their type's name beside a JSON body, so that no class name ends up in stored data.
 *
 * <p>The generated subclass gives the aggregate's stored type names and event classes, in one order, and
 * the dispatch from an event to its place in that order ({@link #indexOf(Object)}, an {@code instanceof}
 * chain over the sealed hierarchy, kept in a static method so that the generated class can name events
 * without an instance). Everything else is done here once instead of in generated code for every aggregate:
 * a name's place is found in a table, bodies are read and written by one Jackson reader and writer per
 * class. An aggregate whose events have versions, aliases, upcasters or
 * retired types overrides {@link #version} and {@link #decodeStored}, reading through the helpers below.
 *
 * <pre>{@code
 * public static final class EventCodec extends JsonEventCodec<AccountEvent> {
 *   public static final List<String> EVENT_TYPES = List.of("account-opened", "money-deposited");
 *
 *   public EventCodec(ObjectMapper mapper) {
 *     super("bank-account", EVENT_TYPES, mapper, AccountOpened.class, MoneyDeposited.class);
 *   }
 *
 *   protected int indexOf(AccountEvent event) {
 *     return index(event);
 *   }
 *
 *   private static int index(AccountEvent event) {
 *     if (event instanceof AccountOpened) {
 *       return 0;
 *     }
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param <E> the sealed root of the aggregate's events
 */
public abstract class JsonEventCodec<E> implements EventCodec<E> {

  private final String aggregateName;
  private final List<String> typeNames;
  private final Map<String, Integer> indexes;
  private final JsonBodies bodies;

  /**
   * A codec of events of {@code classes}, stored under the names at the same places in {@code typeNames}.
   *
   * @param aggregateName the stored aggregate name, for messages
   * @throws IllegalArgumentException when the two lists differ in length or a name is given twice
   */
  protected JsonEventCodec(String aggregateName, List<String> typeNames, ObjectMapper mapper, Class<?>... classes) {
    this.aggregateName = Objects.requireNonNull(aggregateName, "aggregateName");
    this.typeNames = List.copyOf(typeNames);
    Objects.requireNonNull(mapper, "mapper");
    if (classes.length != this.typeNames.size()) {
      throw new IllegalArgumentException("aggregate " + aggregateName + ": " + this.typeNames.size()
          + " event type names for " + classes.length + " classes");
    }
    Map<String, Integer> byName = new HashMap<>();
    for (int i = 0; i < this.typeNames.size(); i++) {
      if (byName.put(this.typeNames.get(i), i) != null) {
        throw new IllegalArgumentException("aggregate " + aggregateName + ": event type name \""
            + this.typeNames.get(i) + "\" is given twice");
      }
    }
    this.indexes = Map.copyOf(byName);
    this.bodies = new JsonBodies(mapper, classes);
  }

  /**
   * Where {@code event}'s type is in the type names: the generated dispatch over the sealed hierarchy.
   *
   * @throws IllegalArgumentException (see {@link #notGeneratedFor}) for an event of another class
   */
  protected abstract int indexOf(E event);

  @Override
  public String typeName(E event) {
    Objects.requireNonNull(event, "event");
    return typeNames.get(indexOf(event));
  }

  @Override
  public byte[] encode(E event) throws IOException {
    Objects.requireNonNull(event, "event");
    return bodies.write(indexOf(event), event);
  }

  @Override
  public E decode(String typeName, byte[] body) throws IOException {
    Objects.requireNonNull(body, "body");
    return bodies.read(indexOf(typeName), body);
  }

  /** {@inheritDoc} Without an override: the current names, each at version 1. */
  @Override
  public List<E> decodeStored(String typeName, int version, byte[] body) throws IOException {
    Objects.requireNonNull(body, "body");
    int index = indexOf(typeName);
    if (version != 1) {
      throw unknownVersion(typeName, version);
    }
    return List.of(bodies.<E>read(index, body));
  }

  /**
   * Where the current stored name {@code typeName} is in the type names.
   *
   * @throws UnknownEventTypeException when no event type of the aggregate has that name
   */
  protected final int indexOf(String typeName) {
    Objects.requireNonNull(typeName, "typeName");
    Integer index = indexes.get(typeName);
    if (index == null) {
      throw new UnknownEventTypeException(aggregateName, typeName, typeNames);
    }
    return index;
  }

  /** Reads {@code body} as the event class at {@code index}. */
  protected final <T extends E> T read(int index, byte[] body) throws IOException {
    return bodies.read(index, body);
  }

  /** Reads {@code json}, a stored body an upcaster has turned into the current version, as the class at {@code index}. */
  protected final <T extends E> T read(int index, JsonNode json) throws IOException {
    return bodies.read(index, json);
  }

  /**
   * A stored body as the JSON object upcasters take.
   *
   * @throws IOException when it is no JSON object
   */
  protected final ObjectNode tree(byte[] body) throws IOException {
    JsonNode tree = bodies.readTree(body);
    if (tree instanceof ObjectNode object) {
      return object;
    }
    throw new IOException("a stored event body is not a JSON object but " + tree.getNodeType());
  }

  /** The failure to read {@code version} of stored type {@code typeName}, which no upcaster reads. */
  protected final IOException unknownVersion(String typeName, int version) {
    return new UnknownEventVersionException(aggregateName, typeName, version);
  }

  /**
   * The failure of the generated dispatch for an event of a class it was not generated for, one added to
   * the sealed hierarchy after the aggregate was compiled.
   */
  protected static IllegalArgumentException notGeneratedFor(String aggregateName, Object event) {
    return new IllegalArgumentException("aggregate " + aggregateName + ": " + event.getClass().getName()
        + " is not one of the events its codec was generated for; recompile the aggregate");
  }
}
