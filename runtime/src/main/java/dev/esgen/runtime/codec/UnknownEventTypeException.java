package dev.esgen.runtime.codec;

import java.util.List;

/**
 * A stored type name that is none of the aggregate's event types, aliases or retired types: an event
 * class was renamed without {@code @EventType} keeping its stored name, or the code that wrote the event
 * is newer than the code reading it.
 *
 * <p>Its message names the aggregate, the type name and the type names the aggregate reads: code's
 * names, never stored content, so the {@link dev.esgen.runtime.error.EventDecodingException} that reports
 * a stored event of that type keeps it.
 *
 * <pre>{@code
 * // "cannot decode event 2 (type 'coupon-used') of ledger L-1: UnknownEventTypeException: aggregate ledger
 * //  has no event type "coupon-used"; its event types are [ledger-opened, money-deposited]"
 * }</pre>
 */
public final class UnknownEventTypeException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String typeName;

  // Package-private: RedactedException keeps the message, so only esgen's codec may write one.
  UnknownEventTypeException(String aggregateName, String typeName, List<String> typeNames) {
    super("aggregate " + aggregateName + " has no event type \"" + typeName + "\"; its event types are " + typeNames);
    this.typeName = typeName;
  }

  /** The type name no event type of the aggregate has. */
  public String typeName() {
    return typeName;
  }
}
