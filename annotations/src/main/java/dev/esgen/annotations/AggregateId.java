package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the component (or field) of an {@link Aggregate} that identifies it.
 *
 * <p>Exactly one per aggregate. Supported types: {@code String}, {@code java.util.UUID}, or a
 * single-component record wrapping one of them, such as {@code record AccountId(UUID value)}. The id's
 * string form ({@code toString()} of the wrapped value) is what the keys in DynamoDB are built from.
 *
 * <pre>{@code
 * @Aggregate(name = "bank-account", events = AccountEvent.class)
 * public record BankAccount(@AggregateId AccountId id, long balanceCents) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
public @interface AggregateId {}
