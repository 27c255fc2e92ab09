package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The stable name an event is stored under, the version of its stored shape, and the names it was
 * stored under before.
 *
 * <p>Without this annotation an event is stored under its simple class name at version 1, so renaming
 * the class would make already stored events unreadable. Give events a name of their own before the
 * first one is written, and keep it when the class moves or is renamed. Names and aliases must be
 * unique within one aggregate's events; the processor reports duplicates on the offending event.
 *
 * <p>When the record changes in a way stored JSON no longer reads into (a component renamed, its type
 * or meaning changed), raise {@link #version()} and add an {@link Upcast} that turns the JSON of the
 * previous version into the new one. Events are always written at the current version; older ones are
 * upcast when they are read. See {@code docs/evolution.md}.
 *
 * <pre>{@code
 * @EventType(value = "account-opened", version = 2, aliases = "account-created")
 * public record AccountOpened(AccountId id, String owner, Instant at) implements AccountEvent {
 *   @Upcast(from = 1)   // version 1 called the owner "name"
 *   static ObjectNode ownerWasName(ObjectNode v1) {
 *     v1.set("owner", v1.remove("name"));
 *     return v1;
 *   }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface EventType {
  /** The stored name, for example {@code "account-opened"}. Must not be blank. */
  String value();

  /**
   * The version of the event's stored shape, from 1. Every version below it needs an {@link Upcast}
   * from it (the processor checks the chain); an event written before versions existed, or at version 1,
   * stores no version at all.
   */
  int version() default 1;

  /**
   * Names this event type was stored under before, for a renamed type: events stored under an alias
   * are read as this type, at the version they were stored with (a rename keeps the version line).
   * New events are always stored under {@link #value()}.
   */
  String[] aliases() default {};
}
