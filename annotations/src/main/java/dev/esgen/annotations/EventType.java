package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The stable name an event is stored under.
 *
 * <p>Without this annotation an event is stored under its simple class name, so renaming the class
 * would make already stored events unreadable. Give events a name of their own before the first one
 * is written, and keep it when the class moves or is renamed. Names must be unique within one
 * aggregate's events; the processor reports duplicates on the offending event.
 *
 * <pre>{@code
 * @EventType("account-opened")
 * public record AccountOpened(AccountId id, String owner, Instant at) implements AccountEvent {}
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface EventType {
  /** The stored name, for example {@code "account-opened"}. Must not be blank. */
  String value();
}
