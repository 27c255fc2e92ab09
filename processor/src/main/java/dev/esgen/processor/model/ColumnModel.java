package dev.esgen.processor.model;

import com.palantir.javapoet.TypeName;
import java.util.Optional;

/**
 * One {@code @Indexed} or {@code @Unique} column of an aggregate.
 *
 * @param name the component's or field's name, which is the column's name
 * @param unique whether {@code @Unique} (rather than only {@code @Indexed})
 * @param access how to read it from the state
 * @param type its declared type
 * @param form how the value becomes its stored string
 * @param wrapped for a single-component record value, how its one component is read and stringified
 */
public record ColumnModel(
    String name, boolean unique, PropertyAccess access, TypeName type, ValueForm form, Optional<Wrapped> wrapped) {

  /** How a value becomes its stored string. */
  public enum ValueForm {
    /** A primitive: {@code String.valueOf}, never absent. */
    PRIMITIVE,
    /** A {@code String}: itself. */
    STRING,
    /** An enum constant: its {@code name()}, which unlike {@code toString()} cannot be overridden. */
    ENUM,
    /** A single-component record: the stored form of its one component. */
    WRAPPER,
    /** Anything else: its {@code toString()}. */
    OTHER
  }

  /**
   * The inside of a single-component record value.
   *
   * @param accessor the record's component accessor
   * @param form how the component becomes a string (never {@link ValueForm#WRAPPER})
   */
  public record Wrapped(String accessor, ValueForm form) {}
}
