package dev.esgen.runtime.internal.retry;

import dev.esgen.runtime.error.FailureKind;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;

/**
 * The one place that decides what a failure of a DynamoDB request means.
 *
 * <p>A cancelled transaction is judged by its cancellation reasons: a failed condition is a
 * {@link FailureKind#VERSION_CONFLICT} (the layout then tells a version conflict from a taken unique
 * value), a cancellation whose reasons are only transaction conflicts and throttling is
 * {@link FailureKind#TRANSIENT}, anything else (a validation error) {@link FailureKind#FATAL}. Server
 * errors (5xx) and client-side failures (time-outs, I/O) leave the outcome unknown.
 *
 * <pre>{@code
 * FailureKind kind = Failures.classify(e);    // e.g. TRANSIENT for a ProvisionedThroughputExceededException
 * }</pre>
 */
public final class Failures {

  static final String CONDITION_FAILED = "ConditionalCheckFailed";

  /** Cancellation reasons that mean DynamoDB did not get to the action at all; sending again may work. */
  private static final Set<String> TRANSIENT_REASONS = Set.of(
      "None", "TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded");

  /** Error codes of throttling that the SDK does not flag as such in every version. */
  private static final Set<String> THROTTLING_CODES = Set.of(
      "ThrottlingException", "Throttling", "ProvisionedThroughputExceededException", "RequestLimitExceeded",
      "TooManyRequestsException");

  private Failures() {}

  /** What {@code failure}, thrown by a DynamoDB client call, means. */
  public static FailureKind classify(Throwable failure) {
    if (failure instanceof TransactionCanceledException cancelled) {
      return classifyCancellation(cancelled);
    }
    if (failure instanceof ConditionalCheckFailedException) {
      return FailureKind.VERSION_CONFLICT;
    }
    if (failure instanceof ProvisionedThroughputExceededException
        || failure instanceof RequestLimitExceededException
        || failure instanceof TransactionConflictException
        || failure instanceof TransactionInProgressException) {
      return FailureKind.TRANSIENT;
    }
    if (failure instanceof SdkServiceException service) {
      String code = errorCode(service);
      if (service.isThrottlingException() || service.statusCode() == 429 || (code != null && THROTTLING_CODES.contains(code))) {
        return FailureKind.TRANSIENT;
      }
      return service.statusCode() >= 500 ? FailureKind.OUTCOME_UNKNOWN : FailureKind.FATAL;
    }
    if (failure instanceof AbortedException) {
      // The calling thread was interrupted: it wants to stop, not to wait for another attempt.
      return FailureKind.FATAL;
    }
    if (failure instanceof SdkClientException) {
      return FailureKind.OUTCOME_UNKNOWN;
    }
    return FailureKind.FATAL;
  }

  /** The reasons DynamoDB gave for cancelling {@code cancelled}, one per action; empty when it gave none. */
  public static List<CancellationReason> reasons(TransactionCanceledException cancelled) {
    return cancelled.hasCancellationReasons() ? cancelled.cancellationReasons() : List.of();
  }

  /** A short, value-free name of {@code failure} for logs and listeners: the DynamoDB error code or the class. */
  public static String describe(Throwable failure) {
    if (failure instanceof SdkServiceException service && errorCode(service) != null) {
      return errorCode(service);
    }
    return failure.getClass().getSimpleName();
  }

  private static FailureKind classifyCancellation(TransactionCanceledException cancelled) {
    List<CancellationReason> reasons = reasons(cancelled);
    if (reasons.stream().anyMatch(r -> CONDITION_FAILED.equals(r.code()))) {
      return FailureKind.VERSION_CONFLICT;
    }
    boolean onlyTransient = !reasons.isEmpty()
        && reasons.stream().allMatch(r -> r.code() == null || TRANSIENT_REASONS.contains(r.code()))
        && reasons.stream().anyMatch(r -> r.code() != null && !"None".equals(r.code()));
    return onlyTransient ? FailureKind.TRANSIENT : FailureKind.FATAL;
  }

  private static String errorCode(SdkServiceException service) {
    if (service instanceof AwsServiceException aws
        && aws.awsErrorDetails() != null) {
      return aws.awsErrorDetails().errorCode();
    }
    return null;
  }
}
