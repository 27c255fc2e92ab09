package dev.esgen.runtime.internal.retry;

import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.StoreUnavailableException;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The client the storage layouts send through: the one place where requests are sent again.
 *
 * <p>Each request goes out with the AWS SDK's own retries switched off (a per-request plugin), so that
 * every failure reaches this class once and is classified by {@link Failures}, and every resend draws
 * on the running operation's {@link RetryBudget}:
 * <ul>
 *   <li>reads are sent again after transient failures and failures of unknown outcome;
 *   <li>writes are sent again after transient failures, which DynamoDB reports only for requests it did
 *       not carry out; a transaction cancelled that way goes out with a new client request token;
 *   <li>a {@code TransactWriteItems} whose outcome is unknown is sent again with the <em>same</em> token,
 *       which DynamoDB applies at most once within ten minutes;
 *   <li>any other write whose outcome is unknown, and any write that fails after an attempt of unknown
 *       outcome, ends in {@link AmbiguousWriteException}: only the layout can tell, by reading back,
 *       whether it was applied.
 * </ul>
 * A request refused until the budget ran out ends in {@link StoreUnavailableException}; failures that
 * retrying cannot help (failed conditions, validation errors, missing tables) are thrown as they are.
 *
 * <pre>{@code
 * RetryBudgets budgets = new RetryBudgets(config.retryPolicy());
 * DynamoDbClient client = new RetryingDynamoDbClient(recorder.meter(userClient), budgets);
 * }</pre>
 */
public final class RetryingDynamoDbClient implements DynamoDbClient {

  private final DynamoDbClient client;
  private final RetryBudgets budgets;
  private final SdkRetries sdkRetries;

  /**
   * @param client sends the requests; when it was built without retries
   *     ({@code AwsRetryStrategy.doNotRetry()} or a strategy of one attempt), requests go out as they are,
   *     which saves the SDK rebuilding its configuration for each request
   */
  public RetryingDynamoDbClient(DynamoDbClient client, RetryBudgets budgets) {
    this.client = Objects.requireNonNull(client, "client");
    this.budgets = Objects.requireNonNull(budgets, "budgets");
    this.sdkRetries = SdkRetries.of(client::serviceClientConfiguration);
  }

  @Override
  public GetItemResponse getItem(GetItemRequest request) {
    return read(client::getItem, sdkRetries.off(request), () -> "GetItem on [" + request.tableName() + "]");
  }

  @Override
  public QueryResponse query(QueryRequest request) {
    return read(client::query, sdkRetries.off(request), () -> "Query on [" + request.tableName() + "]");
  }

  @Override
  public ScanResponse scan(ScanRequest request) {
    return read(client::scan, sdkRetries.off(request), () -> "Scan on [" + request.tableName() + "]");
  }

  @Override
  public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
    return read(client::batchGetItem, sdkRetries.off(request), () -> "BatchGetItem on " + List.copyOf(request.requestItems().keySet()));
  }

  @Override
  public PutItemResponse putItem(PutItemRequest request) {
    return write(client::putItem, sdkRetries.off(request), () -> "PutItem on [" + request.tableName() + "]");
  }

  @Override
  public UpdateItemResponse updateItem(UpdateItemRequest request) {
    return write(client::updateItem, sdkRetries.off(request), () -> "UpdateItem on [" + request.tableName() + "]");
  }

  @Override
  public DeleteItemResponse deleteItem(DeleteItemRequest request) {
    return write(client::deleteItem, sdkRetries.off(request), () -> "DeleteItem on [" + request.tableName() + "]");
  }

  /**
   * Builds the request with a fresh client request token set before the caller's settings, so that a
   * caller's own token wins and {@link #transactWriteItems(TransactWriteItemsRequest)} need not copy the
   * request to add one: every append sends through here.
   */
  @Override
  public TransactWriteItemsResponse transactWriteItems(Consumer<TransactWriteItemsRequest.Builder> request) {
    return transactWriteItems(TransactWriteItemsRequest.builder()
        .clientRequestToken(UUID.randomUUID().toString())
        .applyMutation(request)
        .build());
  }

  @Override
  public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
    TransactWriteItemsRequest attempt = request;
    if (sdkRetries.clientRetries() || request.clientRequestToken() == null) {
      TransactWriteItemsRequest.Builder builder = request.toBuilder();
      if (sdkRetries.clientRetries()) {
        builder.overrideConfiguration(SdkRetries.withoutSdkRetries(request.overrideConfiguration()));
      }
      if (request.clientRequestToken() == null) {
        builder.clientRequestToken(UUID.randomUUID().toString());
      }
      attempt = builder.build();
    }
    Supplier<String> description = () -> "TransactWriteItems on " + tables(request.transactItems());
    RetryBudget budget = budgets.current();
    RuntimeException ambiguous = null;
    while (true) {
      try {
        return client.transactWriteItems(attempt);
      } catch (RuntimeException e) {
        FailureKind kind = Failures.classify(e);
        boolean resend = kind == FailureKind.TRANSIENT || kind == FailureKind.OUTCOME_UNKNOWN;
        if (kind == FailureKind.OUTCOME_UNKNOWN) {
          ambiguous = e;
        }
        if (resend && budget.retry(kind, e)) {
          if (e instanceof TransactionCanceledException) {
            // Cancelled means nothing was applied; a fresh token makes the resend a new transaction rather
            // than a repeat DynamoDB might answer from the cancelled one.
            attempt = attempt.toBuilder().clientRequestToken(UUID.randomUUID().toString()).build();
          }
          continue;
        }
        throw giveUp(description, kind, e, ambiguous != null, budget);
      }
    }
  }

  @Override
  public String serviceName() {
    return client.serviceName();
  }

  /** Does nothing: the store does not own the client it was given. */
  @Override
  public void close() {}

  private <Q, R> R read(Function<Q, R> call, Q request, Supplier<String> description) {
    RetryBudget budget = budgets.current();
    while (true) {
      try {
        return call.apply(request);
      } catch (RuntimeException e) {
        FailureKind kind = Failures.classify(e);
        boolean resend = kind == FailureKind.TRANSIENT || kind == FailureKind.OUTCOME_UNKNOWN;
        if (resend && budget.retry(kind, e)) {
          continue;
        }
        throw giveUp(description, kind, e, false, budget);
      }
    }
  }

  /** A write without an idempotency token: only failures that say nothing was applied are resent here. */
  private <Q, R> R write(Function<Q, R> call, Q request, Supplier<String> description) {
    RetryBudget budget = budgets.current();
    while (true) {
      try {
        return call.apply(request);
      } catch (RuntimeException e) {
        FailureKind kind = Failures.classify(e);
        if (kind == FailureKind.OUTCOME_UNKNOWN) {
          throw new AmbiguousWriteException(e);
        }
        if (kind == FailureKind.TRANSIENT && budget.retry(kind, e)) {
          continue;
        }
        throw giveUp(description, kind, e, false, budget);
      }
    }
  }

  /** What a request's caller is told when it is not sent again: the failure, or what giving up means. */
  static RuntimeException giveUp(Supplier<String> description, FailureKind kind, RuntimeException failure,
      boolean mayBeApplied, RetryBudget budget) {
    if (kind == FailureKind.FATAL) {
      // Never sent again, but a failed attempt all the same: the listener hears of it with its kind.
      budget.failedForGood(kind, failure);
    }
    if (mayBeApplied) {
      return new AmbiguousWriteException(failure);
    }
    if (kind == FailureKind.TRANSIENT || kind == FailureKind.OUTCOME_UNKNOWN) {
      return new StoreUnavailableException(
          description.get(), budget.failedAttempts(), kind, Failures.describe(failure), failure);
    }
    return failure;
  }

  /** The tables {@code items} write, in the order of their first action. */
  public static List<String> tables(List<TransactWriteItem> items) {
    return items.stream()
        .map(item -> item.put() != null ? item.put().tableName()
            : item.update() != null ? item.update().tableName()
            : item.delete() != null ? item.delete().tableName()
            : item.conditionCheck().tableName())
        .distinct()
        .toList();
  }
}
