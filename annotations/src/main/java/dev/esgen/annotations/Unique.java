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
 * event changes it. The generated repository gains {@code findByX} and {@code maybeFindByX}.
 *
 * <pre>{@code
 * @Aggregate(name = "bank-account", events = AccountEvent.class)
 * public record BankAccount(@AggregateId AccountId id, @Unique String email, long balanceCents) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
public @interface Unique {}
