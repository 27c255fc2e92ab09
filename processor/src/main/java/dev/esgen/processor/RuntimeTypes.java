package dev.esgen.processor;

import com.palantir.javapoet.ClassName;

/**
 * The runtime and Jackson types generated code refers to, by name: the processor itself depends on
 * neither, so that it stays small on the annotation processor path.
 */
final class RuntimeTypes {

  private static final String RUNTIME = "dev.esgen.runtime";
  private static final String JACKSON = "com.fasterxml.jackson.databind";

  static final ClassName EVENT_STORE = ClassName.get(RUNTIME, "EventStore");
  static final ClassName ASYNC_EVENT_STORE = ClassName.get(RUNTIME, "AsyncEventStore");
  static final ClassName AGGREGATE_DEFINITION = ClassName.get(RUNTIME + ".aggregate", "AggregateDefinition");
  static final ClassName AGGREGATE_KEYS = ClassName.get(RUNTIME + ".aggregate", "AggregateKeys");
  static final ClassName AGGREGATE_IDS = ClassName.get(RUNTIME + ".aggregate", "AggregateIds");
  static final ClassName REPLAY = ClassName.get(RUNTIME + ".aggregate", "Replay");
  static final ClassName SNAPSHOT_POLICY = ClassName.get(RUNTIME + ".aggregate", "SnapshotPolicy");
  static final ClassName LAYOUT_KIND = ClassName.get(RUNTIME + ".aggregate", "LayoutKind");
  static final ClassName TIP_POLICY = ClassName.get(RUNTIME + ".aggregate", "TipPolicy");
  static final ClassName JSON_EVENT_CODEC = ClassName.get(RUNTIME + ".codec", "JsonEventCodec");
  static final ClassName JSON_SNAPSHOT_CODEC = ClassName.get(RUNTIME + ".codec", "JsonSnapshotCodec");
  static final ClassName INDEX_COLUMNS = ClassName.get(RUNTIME + ".index", "IndexColumns");
  static final ClassName INDEX_COLUMN = ClassName.get(RUNTIME + ".index", "IndexColumn");
  static final ClassName INDEX_VALUES = ClassName.get(RUNTIME + ".index", "IndexValues");
  static final ClassName NORMALIZATION = ClassName.get("dev.esgen.annotations", "Normalization");
  static final ClassName PAGE = ClassName.get(RUNTIME + ".query", "Page");
  static final ClassName PAGE_REQUEST = ClassName.get(RUNTIME + ".query", "PageRequest");
  static final ClassName VALUE_NOT_FOUND = ClassName.get(RUNTIME + ".error", "ValueNotFoundException");
  static final ClassName EVENT_SOURCED_REPOSITORY =
      ClassName.get(RUNTIME + ".repository", "EventSourcedRepository");
  static final ClassName ASYNC_EVENT_SOURCED_REPOSITORY =
      ClassName.get(RUNTIME + ".repository", "AsyncEventSourcedRepository");
  static final ClassName UNEXPECTED_EVENT = ClassName.get(RUNTIME + ".error", "UnexpectedEventException");

  static final ClassName OBJECT_MAPPER = ClassName.get(JACKSON, "ObjectMapper");
  static final ClassName OBJECT_NODE = ClassName.get(JACKSON + ".node", "ObjectNode");

  /**
   * esgen's own, not {@code javax.annotation.processing.Generated}: that one is in module
   * {@code java.compiler}, which a user's named module does not read, while it reads esgen's annotations.
   */
  static final ClassName GENERATED = ClassName.get("dev.esgen.annotations", "Generated");

  private RuntimeTypes() {}
}
