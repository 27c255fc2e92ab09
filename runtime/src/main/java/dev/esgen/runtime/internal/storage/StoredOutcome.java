package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.error.AggregateAlreadyExistsException;
import dev.esgen.runtime.error.AppendOutcomeUnknownException;
import dev.esgen.runtime.error.VersionConflictException;
import dev.esgen.runtime.internal.retry.Failures;
import java.util.OptionalLong;

/**
 * What reading a stream back says about an append whose outcome was unknown. An append conditioned on
 * version {@code v} can only ever be stored as the append right after {@code v}, so looking at the first
 * event after the append's base seq_nr decides it: that event carries the append id of whichever append
 * won version {@code v + 1}.
 *
 * <pre>{@code
 * switch (readBack(request)) {
 *   case THIS_APPEND -> { return written; }                      // stored, exactly once
 *   case ANOTHER_APPEND -> throw conflict;                        // ours can never be applied now
 *   case NOTHING -> { if (budget.retry(OUTCOME_UNKNOWN, e)) resend(); else throw unknown(request, e); }
 * }
 * }</pre>
 */
public enum StoredOutcome {

  /** The append is stored. */
  THIS_APPEND,

  /** Another append holds the version this one was conditioned on: this one is not stored and never will be. */
  ANOTHER_APPEND,

  /** No append followed the version this one was conditioned on: it is not stored (yet). */
  NOTHING;

  /**
   * The exception for an append whose version another append took while this one's outcome was unknown:
   * it is not stored and never will be.
   */
  public static RuntimeException lostTo(AppendRequest<?, ?, ?> request, RuntimeException cause) {
    String name = request.definition().name();
    return request.creating()
        ? new AggregateAlreadyExistsException(name, request.aggregateId(), OptionalLong.empty())
        : new VersionConflictException(name, request.aggregateId(), request.expectedVersion(), OptionalLong.empty(), 1,
            cause);
  }

  /** The exception for an append whose outcome stays unknown after {@code lastFailure}. */
  public static AppendOutcomeUnknownException unknown(AppendRequest<?, ?, ?> request, RuntimeException lastFailure) {
    return new AppendOutcomeUnknownException(request.definition().name(),
        request.aggregateId(), request.expectedVersion(), request.appendId(),
        request.commandId(), Failures.describe(lastFailure), lastFailure);
  }
}
