package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an aggregate component whose value no two aggregates of the same type may hold at once.
 *
 * <p>The value is reserved in the same transaction as the events that set it, and released when an
 * event changes it, all in the same transaction as those events. Creating or changing an aggregate to
 * a value another aggregate of the type holds fails with {@code DuplicateValueException} and writes
 * nothing. A {@code null} value is not reserved (any number of aggregates may have none). The generated
 * repository gains {@code loadByX} and {@code findByX}, read through the reservation with strong
 * consistency (eventual when the store makes eventual reads the aggregate type's default). Supported
 * types are those of {@link Indexed}.
 *
 * <pre>{@code
 * @Aggregate(name = "bank-account", events = AccountEvent.class)
 * public record BankAccount(
 *     @AggregateId AccountId id,
 *     @Unique(normalize = Normalization.CASE_INSENSITIVE) String email,
 *     long balanceCents) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
public @interface Unique {

  /** How values are compared: exact by default. */
  Normalization normalize() default Normalization.EXACT;

  /**
   * The column's stored name, part of every reservation key; default: the component's name. Set it
   * before data is written so that the component can be renamed later.
   */
  String column() default "";
}
