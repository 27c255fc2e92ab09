package dev.esgen.runtime.internal.metrics;

import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.retry.RetryBudget;
import dev.esgen.runtime.internal.retry.RetryBudgets;
import dev.esgen.runtime.metrics.FailedAttempt;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.SkippedSnapshot;
import dev.esgen.runtime.metrics.StoreListener;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

/**
 * Runs repository operations: gives each its {@link RetryBudget} and measures it for a
 * {@link StoreListener}. A repository wraps each operation in {@link #record}; the layouts send their
 * requests through the client {@link #meter(DynamoDbClient)} returns, which asks DynamoDB for the
 * consumed capacity and adds each response's to the operation running on the calling thread. Layouts
 * therefore need no metrics code of their own.
 *
 * <pre>{@code
 * OperationRecorder recorder = new OperationRecorder(listener, new RetryBudgets(RetryPolicy.defaults()));
 * DynamoDbClient metered = recorder.meter(client);                 // hand this to the layouts
 * Counter c = recorder.record("counter", "load", op -> layout.load(definition, id));
 * }</pre>
 */
public final class OperationRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(OperationRecorder.class);

  private final StoreListener listener;
  private final boolean listening;
  private final RetryBudgets budgets;
  // The operation the current thread is running; repositories call layouts on the caller's thread.
  private final ThreadLocal<Recording> current = new ThreadLocal<>();

  public OperationRecorder(StoreListener listener, RetryBudgets budgets) {
    this.listener = Objects.requireNonNull(listener, "listener");
    this.listening = listener != StoreListener.NONE;
    this.budgets = Objects.requireNonNull(budgets, "budgets");
  }

  /**
   * {@code client}, asking for and recording consumed capacity on every request it sends; {@code client}
   * itself when there is no listener to tell, so that no request carries what nobody reads.
   */
  public DynamoDbClient meter(DynamoDbClient client) {
    return listening ? new MeteredDynamoDbClient(client, this) : client;
  }

  /**
   * Runs {@code body} as one operation with a fresh retry budget and reports it to the listener when it
   * ends. An operation esgen starts inside another on the same thread (a {@code findByX} listing the
   * column's holders) is part of the outer one, shares its budget and is not reported on its own; one the
   * caller's code starts inside {@link #outside} is an operation of its own.
   */
  public <T> T record(String aggregateType, String operation, Function<Attempts, T> body) {
    Recording outer = current.get();
    if (outer != null) {
      return body.apply(outer);
    }
    Recording recording = new Recording(aggregateType, operation);
    current.set(recording);
    RetryBudget outerBudget = budgets.enter(recording.budget);
    RuntimeException failure = null;
    try {
      return body.apply(recording);
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    } catch (Error e) {
      // An AssertionError from a decide function, say: a failure all the same, reported as the asynchronous
      // repository's future reports it; the caller gets the Error itself.
      failure = new CompletionException(e);
      throw e;
    } finally {
      budgets.leave(outerBudget);
      // Set to null rather than removed: removing the entry clears a reference in the VM on every operation.
      current.set(null);
      if (listening) {
        report(recording, recording.started, failure);
      }
    }
  }

  /**
   * Runs the caller's {@code code} (a {@code transact}'s decide function) outside the
   * operation running on this thread: a repository call it makes is an operation of its own, with its own
   * retry budget, reported on its own, and its requests are not counted as the outer operation's.
   */
  public <T> T outside(Supplier<T> code) {
    Recording outer = current.get();
    if (outer == null) {
      return code.get();
    }
    current.set(null);
    RetryBudgets.Suspension suspension = budgets.suspend();
    try {
      return code.get();
    } finally {
      budgets.resume(suspension);
      current.set(outer);
    }
  }

  /**
   * Starts an operation whose steps do not run on one thread: an asynchronous repository's. Its retry
   * budget and its measurements travel with the returned {@link Operation}, which every request of the
   * operation is handed, instead of with a thread; it is reported to the listener when it
   * {@linkplain Operation#end ends}.
   */
  public Operation begin(String aggregateType, String operation) {
    return new Recording(aggregateType, operation);
  }

  private void report(Recording recording, long started, RuntimeException failure) {
    OperationMetrics metrics = new OperationMetrics(recording.aggregateType, recording.operation,
        recording.requests, recording.readUnits, recording.writeUnits, recording.attempts, recording.conflicts,
        recording.transientFailures, recording.unknownOutcomes, Duration.ofNanos(System.nanoTime() - started),
        Optional.ofNullable(failure));
    safely(() -> listener.onOperation(metrics));
  }

  /** The retry budget of the operation running on this thread, or a fresh one outside an operation. */
  public RetryBudget currentBudget() {
    return budgets.current();
  }

  /** Tells the listener that a due snapshot was skipped. */
  public void snapshotSkipped(SkippedSnapshot snapshot) {
    LOG.warn("{} {}: the snapshot at seq_nr {} would make an item of {} bytes, over DynamoDB's {}; the events are"
        + " stored without it and the next append tries again", snapshot.aggregateType(), snapshot.aggregateId(),
        snapshot.seqNr(), snapshot.sizeBytes(), snapshot.limitBytes());
    safely(() -> listener.onSnapshotSkipped(snapshot));
  }

  private void safely(Runnable report) {
    try {
      report.run();
    } catch (RuntimeException e) {
      // A broken listener must not turn a stored append into a failure the caller would retry, but it
      // should not fail unseen either.
      LOG.warn("the StoreListener {} threw; esgen goes on without it", listener.getClass().getName(), e);
    }
  }

  /**
   * Adds one request and the capacity DynamoDB reported for it (one entry per table, possibly none) to
   * the operation running on this thread. {@code write} says which kind of unit the request consumed:
   * with {@code ReturnConsumedCapacity = TOTAL} DynamoDB reports a single {@code CapacityUnits} figure.
   */
  void requestSent(List<ConsumedCapacity> consumed, boolean write) {
    Recording recording = current.get();
    if (recording != null) {
      recording.requestSent(consumed, write);
    }
  }

  /** Lets a repository count its write attempts and conflicts and draw on the operation's retry budget. */
  public interface Attempts {

    /** A write is about to be tried. */
    void attempt();

    /** The write just tried lost to another writer. */
    void conflict(VersionConflictException e);

    /** The operation's retry budget, shared with every request it sends. */
    RetryBudget budget();
  }

  /**
   * An operation that carries its own budget and measurements: the requests an asynchronous layout
   * sends for it are added to it explicitly, as the metered client adds a thread's.
   */
  public interface Operation extends Attempts {

    /** Whether a listener hears about this operation, so that its requests should ask for consumed capacity. */
    boolean metered();

    /** Adds one request and the capacity DynamoDB reported for it, as {@code requestSent} does for a thread's. */
    void requestSent(List<ConsumedCapacity> consumed, boolean write);

    /** Ends the operation and reports it; {@code failure} is what it failed with, null when it succeeded. */
    void end(RuntimeException failure);

    /** Marks the operation given up by its caller (its future was cancelled): it should send no further write. */
    void cancel();

    /** Whether {@link #cancel} was called. */
    boolean cancelled();
  }

  private final class Recording implements Operation {
    private final String aggregateType;
    private final String operation;
    private final RetryBudget budget;
    private final long started = System.nanoTime();
    private int requests;
    private double readUnits;
    private double writeUnits;
    private int attempts;
    private int conflicts;
    private int transientFailures;
    private int unknownOutcomes;
    private volatile boolean cancelled;

    Recording(String aggregateType, String operation) {
      this.aggregateType = aggregateType;
      this.operation = operation;
      this.budget = budgets.start(this::failed);
    }

    @Override
    public void attempt() {
      attempts++;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }

    @Override
    public boolean cancelled() {
      return cancelled;
    }

    @Override
    public void conflict(VersionConflictException e) {
      conflicts++;
    }

    @Override
    public RetryBudget budget() {
      return budget;
    }

    @Override
    public boolean metered() {
      return listening;
    }

    @Override
    public void requestSent(List<ConsumedCapacity> consumed, boolean write) {
      requests++;
      double units = 0;
      for (ConsumedCapacity capacity : consumed) {
        if (capacity != null && capacity.capacityUnits() != null) {
          units += capacity.capacityUnits();
        }
      }
      if (write) {
        writeUnits += units;
      } else {
        readUnits += units;
      }
    }

    @Override
    public void end(RuntimeException failure) {
      if (listening) {
        report(this, started, failure);
      }
    }

    private void failed(FailureKind kind, int failedAttempts, String errorCode, Optional<Duration> retryAfter) {
      if (kind == FailureKind.TRANSIENT) {
        transientFailures++;
      } else if (kind == FailureKind.OUTCOME_UNKNOWN) {
        unknownOutcomes++;
      }
      if (retryAfter.isPresent()) {
        LOG.debug("{} {}: attempt {} failed ({}, {}), trying again in {} ms", aggregateType, operation, failedAttempts,
            kind, errorCode, retryAfter.get().toMillis());
      } else if (kind == FailureKind.FATAL) {
        // No retry was due: the caller gets the failure itself, and no budget was spent.
        LOG.debug("{} {}: attempt {} failed ({}, {}), which no retry can fix", aggregateType, operation,
            failedAttempts, kind, errorCode);
      } else {
        LOG.warn("{} {}: attempt {} failed ({}, {}) and the retry budget is spent, giving up", aggregateType,
            operation, failedAttempts, kind, errorCode);
      }
      FailedAttempt attempt =
          new FailedAttempt(aggregateType, operation, failedAttempts, kind, errorCode, retryAfter);
      safely(() -> listener.onFailedAttempt(attempt));
    }
  }
}
