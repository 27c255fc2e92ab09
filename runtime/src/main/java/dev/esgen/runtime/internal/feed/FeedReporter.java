package dev.esgen.runtime.internal.feed;

import dev.esgen.runtime.feed.DeliveryFailure;
import dev.esgen.runtime.feed.FeedListener;
import dev.esgen.runtime.feed.GapRead;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the change feed's {@link FeedListener} and its log what happened: gaps read at DEBUG (a new
 * projection reads every stream that way), failed deliveries at WARN. Neither names more of an event
 * than its stream, seq_nr and type, nor the text of the exception it failed with, which may quote it.
 *
 * <pre>{@code
 * FeedReporter reporter = new FeedReporter(listener);
 * reporter.gapRead(new GapRead("balances", "bank-account", "42", 3, 5));
 * }</pre>
 */
public final class FeedReporter {

  private static final Logger LOG = LoggerFactory.getLogger("dev.esgen.runtime.feed");

  private final FeedListener listener;

  public FeedReporter(FeedListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  /** Events of a stream are about to be read from the store. */
  public void gapRead(GapRead gap) {
    LOG.debug("{}: reading events {} to {} of {} {} from the store, their records have not arrived",
        gap.projection(), gap.fromSeqNr(), gap.toSeqNr(), gap.aggregateType(), gap.aggregateId());
    safely(() -> listener.onGapRead(gap));
  }

  /** An attempt to deliver an event failed. */
  public void deliveryFailed(DeliveryFailure failure) {
    if (failure.willRetry()) {
      LOG.warn("{}: event {} of {} {} failed on attempt {} ({}), trying again in {} ms", failure.projection(),
          failure.seqNr(), failure.aggregateType(), failure.aggregateId(), failure.attempt(),
          failure.failure().getClass().getName(), failure.retryAfter().get().toMillis());
    } else {
      LOG.warn("{}: event {} of {} {} failed on attempt {} ({}), giving up; the stream waits at this event",
          failure.projection(), failure.seqNr(), failure.aggregateType(), failure.aggregateId(), failure.attempt(),
          failure.failure().getClass().getName());
    }
    safely(() -> listener.onDeliveryFailure(failure));
  }

  private void safely(Runnable report) {
    try {
      report.run();
    } catch (RuntimeException e) {
      LOG.warn("the FeedListener {} threw; the change feed goes on without it", listener.getClass().getName(), e);
    }
  }
}
