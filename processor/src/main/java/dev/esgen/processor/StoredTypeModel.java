package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import java.util.List;

/**
 * A type name events are stored under, and how each of its stored versions is read.
 *
 * @param name the stored type name
 * @param version for a current event its {@code @EventType} version, which its class reads; for a
 *     retired type (no class any more) the last version an upcaster reads
 * @param aliases earlier names of a current event, read like {@code name}
 * @param upcasts the upcasters, by the version they read, ascending and without gaps from 1
 */
record StoredTypeModel(String name, int version, List<String> aliases, List<UpcastModel> upcasts) {

  StoredTypeModel {
    aliases = List.copyOf(aliases);
    upcasts = List.copyOf(upcasts);
  }

  /**
   * One upcaster method.
   *
   * @param from the stored version it reads
   * @param owner the class declaring it
   * @param method its name
   * @param result what it returns
   */
  record UpcastModel(int from, ClassName owner, String method, Result result) {}

  /** What an upcaster returns, and so where the event goes next. */
  enum Result {
    /** {@code ObjectNode}: the JSON of the next version of the same type. */
    NEXT_VERSION,
    /** One event of the aggregate: what the stored event stands for now. */
    EVENT,
    /** A list of events of the aggregate: what the stored event stands for now, in order. */
    EVENTS
  }
}
