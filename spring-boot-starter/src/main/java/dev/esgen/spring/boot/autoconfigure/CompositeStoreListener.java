package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.metrics.StoreListener;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells every one of several listeners, in order. A store has one listener; the application may have a
 * listener bean of its own besides the Micrometer one.
 */
final class CompositeStoreListener implements StoreListener {

  /** SLF4J, as the store logs what its one listener throws. */
  private static final Logger LOG = LoggerFactory.getLogger(CompositeStoreListener.class);

  private final List<StoreListener> listeners;

  private CompositeStoreListener(List<StoreListener> listeners) {
    this.listeners = listeners;
  }

  /** {@link StoreListener#NONE} for no listener, the listener itself for one, else one that tells them all. */
  static StoreListener of(List<StoreListener> listeners) {
    return switch (listeners.size()) {
      case 0 -> StoreListener.NONE;
      case 1 -> listeners.get(0);
      default -> new CompositeStoreListener(List.copyOf(listeners));
    };
  }

  @Override
  public void onOperation(OperationMetrics metrics) {
    tellAll(listener -> listener.onOperation(metrics));
  }

  @Override
  public void onFailedAttempt(FailedAttempt attempt) {
    tellAll(listener -> listener.onFailedAttempt(attempt));
  }

  @Override
  public void onSnapshotSkipped(SkippedSnapshot snapshot) {
    tellAll(listener -> listener.onSnapshotSkipped(snapshot));
  }

  private void tellAll(Consumer<StoreListener> call) {
    for (StoreListener listener : listeners) {
      try {
        call.accept(listener);
      } catch (RuntimeException e) {
        // Reported as the store reports a listener's exception, which it no longer sees; the others are
        // still told.
        LOG.warn("the StoreListener {} threw; esgen goes on without it", listener.getClass().getName(), e);
      }
    }
  }
}
