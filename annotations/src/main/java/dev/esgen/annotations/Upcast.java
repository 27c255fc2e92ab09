package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Turns the stored JSON of an older version of an event into what the current code reads.
 *
 * <p>An upcaster is a {@code static} method, not private, taking the stored body as a Jackson
 * {@code ObjectNode}. What it returns says where the event goes next:
 * <ul>
 *   <li>{@code ObjectNode}: the JSON of version {@code from + 1} of the same type, which the next
 *       upcaster (or, at the current version, the event's own Jackson reader) takes over;</li>
 *   <li>an event of the aggregate (a concrete event, a sealed level or the root): the stored event is
 *       this one event from now on, for a renamed or reshaped type;</li>
 *   <li>a {@code List} of events: the stored event is these events, in order, for a type that was split;
 *       an empty list drops it.</li>
 * </ul>
 * The generated codec runs the chain when it reads an event; events are always written at the current
 * version. The processor checks the chain: one upcaster per stored version below the current one,
 * none for the current version or above.
 *
 * <p>Upcasters live in the event class whose versions they read, or in a class listed in
 * {@link DomainEvents#upcasters()}; there, and for an event type that no longer has a class, {@link #type()}
 * names the stored type.
 *
 * <pre>{@code
 * @EventType(value = "money-deposited", version = 2)
 * public record MoneyDeposited(long cents, String currency) implements AccountEvent {
 *   @Upcast(from = 1)       // version 1 stored euros as "amount"
 *   static ObjectNode centsAndCurrency(ObjectNode v1) {
 *     return v1.put("cents", v1.remove("amount").asLong() * 100).put("currency", "EUR");
 *   }
 * }
 *
 * final class AccountUpcasters {
 *   @Upcast(type = "transfer-booked", from = 1)   // a retired type, split in two
 *   static List<AccountEvent> split(ObjectNode v1) {
 *     return List.of(new MoneyWithdrawn(v1.get("cents").asLong()), new FeeCharged(v1.get("fee").asLong()));
 *   }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Upcast {

  /** The stored version this upcaster reads, from 1 and below the event's current version. */
  int from();

  /**
   * The stored type name it reads. Empty (the default) inside an event class means that event's own
   * {@link EventType#value()}; required in a class of {@link DomainEvents#upcasters()}; never blank. A
   * name that is no current event's names a retired type, whose last upcaster must return events.
   */
  String type() default "";
}
