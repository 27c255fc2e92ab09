package dev.esgen.runtime.metrics;

import dev.esgen.runtime.error.FailureKind;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One failed attempt inside a repository operation, as a {@link StoreListener} hears of it: a request
 * DynamoDB refused or did not answer, or a write that lost to another writer.
 *
 * <pre>{@code
 * StoreListener listener = new StoreListener() {
 *   public void onOperation(OperationMetrics m) {}
 *   public void onFailedAttempt(FailedAttempt a) {
 *     log.debug("{} {} attempt {} failed ({} {}), {}", a.aggregateType(), a.operation(), a.attempt(),
 *         a.kind(), a.errorCode(), a.retryAfter().map(d -> "retrying in " + d).orElse("giving up"));
 *   }
 * };
 * }</pre>
 *
 * @param aggregateType the aggregate's stored name
 * @param operation the repository method, e.g. {@code transact}
 * @param attempt how many attempts of the operation have failed, this one included
 * @param kind what the failure means
 * @param errorCode DynamoDB's error code, or the exception's class name; never a stored value
 * @param retryAfter the pause before the next attempt; empty when the operation gives up
 */
public record FailedAttempt(
    String aggregateType, String operation, int attempt, FailureKind kind, String errorCode,
    Optional<Duration> retryAfter) {

  /** Requires every component; {@code retryAfter} is empty when the attempt was the last. */
  public FailedAttempt {
    Objects.requireNonNull(aggregateType, "aggregateType");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(errorCode, "errorCode");
    Objects.requireNonNull(retryAfter, "retryAfter");
  }
}
