package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an aggregate component whose current value can be looked up.
 *
 * <p>The generated repository gains {@code loadByX}, {@code findByX} and {@code listByX} for the
 * component {@code x}. The value is written in the same transaction as the events that changed it, on
 * the aggregate's head row, where a global secondary index finds it; a {@code null} value is not
 * indexed. Lookups through the index are eventually consistent.
 *
 * <p>Supported types: {@code String}; {@code byte}, {@code short}, {@code int}, {@code long},
 * {@code float}, {@code double} and their boxes, {@code BigInteger}, {@code BigDecimal};
 * {@code boolean}/{@code Boolean}; enums; {@code UUID}; {@code Instant}; {@code LocalDate}; and records
 * with exactly one component of one of those types.
 *
 * <pre>{@code
 * @Aggregate(name = "bank-account", events = AccountEvent.class)
 * public record BankAccount(@AggregateId AccountId id, @Indexed String owner, long balanceCents) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
public @interface Indexed {

  /**
   * The column's stored name, part of every index key; default: the component's name. Set it before
   * data is written so that the component can be renamed later.
   */
  String column() default "";
}
