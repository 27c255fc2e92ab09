package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.internal.keys.TipKeys;
import java.util.Objects;

/**
 * Which position: one projection's in one stream. The stream is named {@code {aggregate-name}#{aid}}, as
 * the tip layout names it: aggregate names cannot hold {@code #}, so two aggregate types never share one.
 *
 * <pre>{@code
 * PositionKey key = PositionKey.of("balances", "bank-account", "42");   // stream "bank-account#42"
 * }</pre>
 *
 * @param projection the projection's name
 * @param stream {@code {aggregate-name}#{aid}}
 */
public record PositionKey(String projection, String stream) {

  public PositionKey {
    Objects.requireNonNull(projection, "projection");
    Objects.requireNonNull(stream, "stream");
  }

  /** The position of {@code projection} in the stream {@code aggregateId} of {@code aggregateName}. */
  public static PositionKey of(String projection, String aggregateName, String aggregateId) {
    return new PositionKey(projection, new TipKeys(aggregateName).streamName(aggregateId));
  }
}
