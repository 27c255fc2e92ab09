package dev.esgen.runtime.history;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Metadata that every append made on the calling thread picks up while a block runs: set it once where a
 * request enters the service (a web filter, a message listener) and every repository call below it
 * stores the correlation id, actor and so on with its events. Metadata given to a call explicitly fills in
 * first; the context fills the gaps. Scopes nest: an inner scope's values win over an outer one's.
 *
 * <p>Like SLF4J's MDC, the context belongs to the thread: work handed to another thread does not see it
 * unless run there in a scope of its own.
 *
 * <pre>{@code
 * EventContext.with(EventMetadata.none().withCorrelationId(requestId).withActor(user))
 *     .run(() -> accounts.transact(id, account -> account.deposit(500)));
 * }</pre>
 */
public final class EventContext {

  // The one piece of thread-scoped state esgen keeps: the point of a context is that code between the
  // entry point and the repository need not pass it along.
  private static final ThreadLocal<EventMetadata> CURRENT = ThreadLocal.withInitial(EventMetadata::none);

  private final EventMetadata metadata;

  private EventContext(EventMetadata metadata) {
    this.metadata = Objects.requireNonNull(metadata, "metadata");
  }

  /** A scope that adds {@code metadata} to what the calling thread's appends carry. */
  public static EventContext with(EventMetadata metadata) {
    return new EventContext(metadata);
  }

  /** The metadata of the calling thread's innermost scope; {@link EventMetadata#none()} outside any. */
  public static EventMetadata current() {
    return CURRENT.get();
  }

  /** Runs {@code work} in this scope. */
  public void run(Runnable work) {
    call(() -> {
      work.run();
      return null;
    });
  }

  /** Runs {@code work} in this scope and returns its result. */
  public <T> T call(Supplier<T> work) {
    EventMetadata outer = CURRENT.get();
    CURRENT.set(metadata.orElse(outer));
    try {
      return work.get();
    } finally {
      CURRENT.set(outer);
    }
  }
}
