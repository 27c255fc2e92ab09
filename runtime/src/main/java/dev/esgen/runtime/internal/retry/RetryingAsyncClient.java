package dev.esgen.runtime.internal.retry;

import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.internal.async.CompletableFutures;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * What {@link RetryingDynamoDbClient} and the metered client are to the synchronous layouts, for the
 * asynchronous ones: sends each request through a {@link DynamoDbAsyncClient} with the SDK's own retries
 * off, classifies every failure with {@link Failures}, and sends again as the operation's
 * {@link RetryBudget} allows, by the same rules (reads after transient failures and unknown outcomes; a
 * {@code TransactWriteItems} after transient failures, and after an unknown outcome with the same client
 * request token; giving up with {@link AmbiguousWriteException} when a transaction may have been applied;
 * a {@code PutItem} or {@code UpdateItem} after transient failures only, failing with
 * {@link AmbiguousWriteException} at once when its outcome is unknown).
 *
 * <p>No thread waits: the pause before a resend is spent on a delayed executor
 * ({@link CompletableFuture#delayedExecutor}) that then sends from {@code executor}. The operation whose
 * budget is drawn on and whose requests and capacity are counted is passed with each request, not taken
 * from the calling thread, because the steps of one operation run on whichever threads complete the
 * SDK's futures. The futures returned fail with the failure itself, never a
 * {@link java.util.concurrent.CompletionException} around it.
 *
 * <pre>{@code
 * RetryingAsyncClient client = new RetryingAsyncClient(asyncClient, ForkJoinPool.commonPool());
 * client.getItem(request, recorder.begin("bank-account", "load")).thenAccept(response -> ...);
 * }</pre>
 */
public final class RetryingAsyncClient {

  private final DynamoDbAsyncClient client;
  private final Executor executor;
  private final SdkRetries sdkRetries;

  /**
   * @param client sends the requests; not closed by this class
   * @param executor sends the requests that follow a pause
   */
  public RetryingAsyncClient(DynamoDbAsyncClient client, Executor executor) {
    this.client = Objects.requireNonNull(client, "client");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.sdkRetries = SdkRetries.of(client::serviceClientConfiguration);
  }

  /** The executor that sends requests after a pause; the asynchronous layouts wait on it too. */
  public Executor executor() {
    return executor;
  }

  public CompletableFuture<GetItemResponse> getItem(GetItemRequest request, OperationRecorder.Operation operation) {
    GetItemRequest sent = metered(request.returnConsumedCapacity(), operation)
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request;
    return read(client::getItem, sdkRetries.off(sent), response -> single(response.consumedCapacity()),
        () -> "GetItem on [" + request.tableName() + "]", operation);
  }

  public CompletableFuture<QueryResponse> query(QueryRequest request, OperationRecorder.Operation operation) {
    QueryRequest sent = metered(request.returnConsumedCapacity(), operation)
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request;
    return read(client::query, sdkRetries.off(sent), response -> single(response.consumedCapacity()),
        () -> "Query on [" + request.tableName() + "]", operation);
  }

  public CompletableFuture<BatchGetItemResponse> batchGetItem(
      BatchGetItemRequest request, OperationRecorder.Operation operation) {
    BatchGetItemRequest sent = metered(request.returnConsumedCapacity(), operation)
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request;
    return read(client::batchGetItem, sdkRetries.off(sent), BatchGetItemResponse::consumedCapacity,
        () -> "BatchGetItem on " + List.copyOf(request.requestItems().keySet()), operation);
  }

  /**
   * Sends the put again only after transient failures, which say it was not carried out; fails with
   * {@link AmbiguousWriteException} when its outcome is unknown, for the layout to read back.
   */
  public CompletableFuture<PutItemResponse> putItem(PutItemRequest request, OperationRecorder.Operation operation) {
    PutItemRequest sent = metered(request.returnConsumedCapacity(), operation)
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request;
    return write(client::putItem, sdkRetries.off(sent), response -> single(response.consumedCapacity()),
        () -> "PutItem on [" + request.tableName() + "]", operation);
  }

  /** As {@link #putItem}, for an update. */
  public CompletableFuture<UpdateItemResponse> updateItem(
      UpdateItemRequest request, OperationRecorder.Operation operation) {
    UpdateItemRequest sent = metered(request.returnConsumedCapacity(), operation)
        ? request.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : request;
    return write(client::updateItem, sdkRetries.off(sent), response -> single(response.consumedCapacity()),
        () -> "UpdateItem on [" + request.tableName() + "]", operation);
  }

  /**
   * Sends the transaction until it is applied, refused, or the budget is spent; see the class comment.
   * Fails with {@link AmbiguousWriteException} when an attempt's outcome was unknown and no later attempt
   * settled it.
   */
  public CompletableFuture<TransactWriteItemsResponse> transactWriteItems(
      TransactWriteItemsRequest request, OperationRecorder.Operation operation) {
    TransactWriteItemsRequest.Builder builder = request.toBuilder();
    if (sdkRetries.clientRetries()) {
      builder.overrideConfiguration(SdkRetries.withoutSdkRetries(request.overrideConfiguration()));
    }
    if (request.clientRequestToken() == null) {
      builder.clientRequestToken(UUID.randomUUID().toString());
    }
    if (metered(request.returnConsumedCapacity(), operation)) {
      builder.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
    }
    Supplier<String> description = () -> "TransactWriteItems on " + RetryingDynamoDbClient.tables(request.transactItems());
    return transact(builder.build(), description, operation, null);
  }

  private CompletableFuture<TransactWriteItemsResponse> transact(TransactWriteItemsRequest attempt,
      Supplier<String> description, OperationRecorder.Operation operation, RuntimeException ambiguous) {
    return send(client::transactWriteItems, attempt, TransactWriteItemsResponse::consumedCapacity, true, operation)
        .handle((response, failure) -> {
          if (failure == null) {
            return CompletableFuture.completedFuture(response);
          }
          Throwable cause = CompletableFutures.unwrap(failure);
          FailureKind kind = Failures.classify(cause);
          RuntimeException unknown = kind == FailureKind.OUTCOME_UNKNOWN && cause instanceof RuntimeException runtime
              ? runtime : ambiguous;
          boolean resend = kind == FailureKind.TRANSIENT || kind == FailureKind.OUTCOME_UNKNOWN;
          Optional<Duration> pause = resend ? operation.budget().pauseBeforeRetry(kind, cause) : Optional.empty();
          if (pause.isPresent()) {
            // Cancelled means nothing was applied; a fresh token makes the resend a new transaction rather
            // than a repeat DynamoDB might answer from the cancelled one.
            TransactWriteItemsRequest next = cause instanceof TransactionCanceledException
                ? attempt.toBuilder().clientRequestToken(UUID.randomUUID().toString()).build()
                : attempt;
            return CompletableFutures.after(pause.get(), executor, () -> operation.cancelled()
                // The caller gave the command up during the pause: no write is sent for it any more.
                ? CompletableFuture.<TransactWriteItemsResponse>failedFuture(unknown != null
                    ? giveUp(description, kind, cause, true, operation)
                    : cancelled(description))
                : transact(next, description, operation, unknown));
          }
          return CompletableFuture.<TransactWriteItemsResponse>failedFuture(
              giveUp(description, kind, cause, unknown != null, operation));
        })
        .thenCompose(next -> next);
  }

  private <Q, R> CompletableFuture<R> read(Function<Q, CompletableFuture<R>> call, Q request,
      Function<R, List<ConsumedCapacity>> capacity, Supplier<String> description,
      OperationRecorder.Operation operation) {
    return send(call, request, capacity, false, operation)
        .handle((response, failure) -> {
          if (failure == null) {
            return CompletableFuture.completedFuture(response);
          }
          Throwable cause = CompletableFutures.unwrap(failure);
          FailureKind kind = Failures.classify(cause);
          boolean resend = kind == FailureKind.TRANSIENT || kind == FailureKind.OUTCOME_UNKNOWN;
          Optional<Duration> pause = resend ? operation.budget().pauseBeforeRetry(kind, cause) : Optional.empty();
          if (pause.isPresent()) {
            return CompletableFutures.after(pause.get(), executor,
                () -> read(call, request, capacity, description, operation));
          }
          return CompletableFuture.<R>failedFuture(giveUp(description, kind, cause, false, operation));
        })
        .thenCompose(next -> next);
  }

  /** A write without an idempotency token: only failures that say nothing was applied are resent here. */
  private <Q, R> CompletableFuture<R> write(Function<Q, CompletableFuture<R>> call, Q request,
      Function<R, List<ConsumedCapacity>> capacity, Supplier<String> description,
      OperationRecorder.Operation operation) {
    return send(call, request, capacity, true, operation)
        .handle((response, failure) -> {
          if (failure == null) {
            return CompletableFuture.completedFuture(response);
          }
          Throwable cause = CompletableFutures.unwrap(failure);
          FailureKind kind = Failures.classify(cause);
          if (kind == FailureKind.OUTCOME_UNKNOWN && cause instanceof RuntimeException runtime) {
            return CompletableFuture.<R>failedFuture(new AmbiguousWriteException(runtime));
          }
          Optional<Duration> pause = kind == FailureKind.TRANSIENT
              ? operation.budget().pauseBeforeRetry(kind, cause) : Optional.empty();
          if (pause.isPresent()) {
            return CompletableFutures.after(pause.get(), executor, () -> operation.cancelled()
                ? CompletableFuture.<R>failedFuture(cancelled(description))
                : write(call, request, capacity, description, operation));
          }
          return CompletableFuture.<R>failedFuture(giveUp(description, kind, cause, false, operation));
        })
        .thenCompose(next -> next);
  }

  /** The failure of a write not sent again because its caller cancelled the command; nothing of it was applied. */
  private static CancellationException cancelled(Supplier<String> description) {
    return new CancellationException(description.get() + ": the caller cancelled the command during a pause before"
        + " a retry; the write was not sent again, and nothing of it was applied");
  }

  /** Sends one request and counts it, with its consumed capacity, for the operation. */
  private static <Q, R> CompletableFuture<R> send(Function<Q, CompletableFuture<R>> call, Q request,
      Function<R, List<ConsumedCapacity>> capacity, boolean write, OperationRecorder.Operation operation) {
    return CompletableFutures.start(() -> call.apply(request)).whenComplete((response, failure) -> {
      // A rejected request was still sent; DynamoDB does not say in the error what it consumed.
      List<ConsumedCapacity> consumed = response == null ? null : capacity.apply(response);
      operation.requestSent(consumed == null ? List.of() : consumed, write);
    });
  }

  private static Throwable giveUp(Supplier<String> description, FailureKind kind, Throwable failure,
      boolean mayBeApplied, OperationRecorder.Operation operation) {
    if (failure instanceof RuntimeException runtime) {
      return RetryingDynamoDbClient.giveUp(description, kind, runtime, mayBeApplied, operation.budget());
    }
    return failure;
  }

  /** Whether {@code request} should ask for its consumed capacity: someone listens and it asks for none yet. */
  private static boolean metered(ReturnConsumedCapacity asked, OperationRecorder.Operation operation) {
    return operation.metered() && asked == null;
  }

  private static List<ConsumedCapacity> single(ConsumedCapacity capacity) {
    return capacity == null ? List.of() : List.of(capacity);
  }
}
