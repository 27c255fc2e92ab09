package dev.esgen.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the sealed root of one aggregate's events.
 *
 * <p>The annotated type must be a {@code sealed} interface (or sealed abstract class). Every type it
 * permits, directly or through nested sealed levels, is an event that the aggregate must handle. The
 * processor checks this at compile time: an event without a handler is a compile error on the aggregate.
 *
 * <pre>{@code
 * @DomainEvents(upcasters = AccountUpcasters.class)
 * public sealed interface AccountEvent permits AccountOpened, MoneyDeposited, AccountClosed {}
 * }</pre>
 *
 * @see Aggregate#events()
 * @see EventType
 * @see Upcast
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface DomainEvents {

  /**
   * Classes holding further {@link Upcast} methods besides those inside the event classes: the place
   * for the upcasters of event types that no longer have a class of their own (each names its stored
   * type with {@link Upcast#type()}), or for keeping old shapes out of the current event records.
   */
  Class<?>[] upcasters() default {};
}
