package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an aggregate component whose current value can be looked up.
 *
 * <p>The generated repository gains {@code findByX}, {@code maybeFindByX} and {@code listByX} for the
 * component {@code x}. The value is written in the same transaction as the events that changed it.
 *
 * <pre>{@code
 * @Aggregate(name = "bank-account", events = AccountEvent.class)
 * public record BankAccount(@AggregateId AccountId id, @Indexed String owner, long balanceCents) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
public @interface Indexed {}
