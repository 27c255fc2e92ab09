package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import java.util.Optional;

/**
 * The aggregate's id: its type, how to read it from the state and how it becomes a string.
 *
 * @param propertyName the {@code @AggregateId} component's or field's name
 * @param access how to read it from the state
 * @param type the id type: {@code String}, {@code UUID} or a single-component record
 * @param valueKind whether the (wrapped) value is a String or a UUID
 * @param wrapperAccessor for a record id, the accessor of its one component
 */
record IdModel(
    String propertyName, PropertyAccess access, ClassName type, ValueKind valueKind, Optional<String> wrapperAccessor) {

  /** The kinds of value an id's string form can be made of. */
  public enum ValueKind {
    STRING,
    UUID
  }
}
