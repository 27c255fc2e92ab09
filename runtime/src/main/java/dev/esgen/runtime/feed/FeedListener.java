package dev.esgen.runtime.feed;

/**
 * Hears what a {@link ChangeFeed} had to work around: deliveries that failed and will be tried again (or
 * were given up), and gaps it read from the store because a stream record was missing or late. Plug it
 * into metrics or alerts; esgen also logs both through SLF4J (logger {@code dev.esgen.runtime.feed}),
 * without event contents.
 *
 * <p>Called on the thread that delivers; a listener should be quick and must not throw (an exception it
 * throws is logged and otherwise ignored).
 *
 * <pre>{@code
 * FeedListener alerts = new FeedListener() {
 *   @Override
 *   public void onDeliveryFailure(DeliveryFailure failure) {
 *     if (!failure.willRetry()) {
 *       pager.alert(failure.projection() + " stuck at " + failure.aggregateId() + "/" + failure.seqNr());
 *     }
 *   }
 * };
 * ChangeFeed feed = ChangeFeed.builder(store).projection(...).listener(alerts).build();
 * }</pre>
 */
public interface FeedListener {

  /** A listener that ignores everything: the default. */
  FeedListener NONE = new FeedListener() {};

  /** An event could not be delivered to a projection on this attempt. The default ignores it. */
  default void onDeliveryFailure(DeliveryFailure failure) {}

  /** Events of a stream were read from the store because their records had not arrived. The default ignores it. */
  default void onGapRead(GapRead gap) {}
}
