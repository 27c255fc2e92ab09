package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.metrics.StoreListener;
import java.util.List;
import java.util.function.Consumer;

/**
 * Tells every one of several listeners, in order. A store has one listener; the application may have a
 * listener bean of its own besides the Micrometer one.
 */
final class CompositeStoreListener implements StoreListener {

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
      } catch (RuntimeException ignored) {
        // The store swallows a listener's exception too; here it must not keep the others from hearing.
      }
    }
  }
}
