package dev.esgen.processor;

import com.palantir.javapoet.TypeName;
import java.util.Locale;
import java.util.Optional;

/**
 * One {@code @Indexed} or {@code @Unique} column of an aggregate.
 *
 * @param name the column's stored name: the annotation's {@code column}, else the property's name
 * @param property the component's or field's name, from which method names are made
 * @param unique whether {@code @Unique} (rather than {@code @Indexed})
 * @param normalization for a unique column the name of its {@code Normalization} constant, else
 *     {@code EXACT}
 * @param access how to read it from the state
 * @param type its declared type
 * @param form how the value is null-checked before it becomes its stored string
 * @param wrapped for a single-component record value, how its one component is read
 */
record ColumnModel(
    String name,
    String property,
    boolean unique,
    String normalization,
    PropertyAccess access,
    TypeName type,
    ValueForm form,
    Optional<Wrapped> wrapped) {

  /** The constant naming a column read from {@code property} in {@code FooRepository.IndexColumns}: {@code FOO_BAR} for {@code fooBar}. */
  public static String constantFor(String property) {
    return property.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
  }

  /** How a value reaches {@code IndexValues.of}. */
  public enum ValueForm {
    /** A primitive: never absent. */
    PRIMITIVE,
    /** A supported reference type (String, box, BigDecimal, enum, UUID, Instant, ...): absent when null. */
    OBJECT,
    /** A single-component record: the stored form of its one component; absent when either is null. */
    WRAPPER
  }

  /**
   * The inside of a single-component record value.
   *
   * @param accessor the record's component accessor
   * @param primitive whether the component is primitive (so never null)
   */
  public record Wrapped(String accessor, boolean primitive) {}
}
