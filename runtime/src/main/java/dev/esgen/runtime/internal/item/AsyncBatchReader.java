package dev.esgen.runtime.internal.item;

import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.internal.async.CompletableFutures;
import dev.esgen.runtime.internal.metrics.OperationRecorder;
import dev.esgen.runtime.internal.retry.RetryingAsyncClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * {@link ConsistentBatchReader} for the asynchronous layouts: the same chunks of
 * {@value ConsistentBatchReader#BATCH_LIMIT} keys, one after the other, and unprocessed keys asked for
 * again: at once when the call processed some of its keys, else after a pause from the operation's retry
 * budget, spent on the delayed executor instead of a sleeping thread.
 *
 * <pre>{@code
 * new AsyncBatchReader(client, "snapshot").read(keys, true, operation).thenAccept(items -> ...);
 * }</pre>
 */
public final class AsyncBatchReader {

  private final RetryingAsyncClient client;
  private final String table;

  public AsyncBatchReader(RetryingAsyncClient client, String table) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(table, "table");
  }

  /**
   * The items found for {@code keys}, in no particular order; keys without an item are left out. Fails
   * with {@link MissingTableException}, or with {@link StoreUnavailableException} when calls process
   * none of their keys until the budget is spent.
   */
  public CompletableFuture<List<Map<String, AttributeValue>>> read(
      List<Map<String, AttributeValue>> keys, boolean consistent, OperationRecorder.Operation operation) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    CompletableFuture<Void> chunks = CompletableFuture.completedFuture(null);
    for (int from = 0; from < keys.size(); from += ConsistentBatchReader.BATCH_LIMIT) {
      List<Map<String, AttributeValue>> chunk =
          keys.subList(from, Math.min(keys.size(), from + ConsistentBatchReader.BATCH_LIMIT));
      Map<String, KeysAndAttributes> request =
          Map.of(table, KeysAndAttributes.builder().keys(chunk).consistentRead(consistent).build());
      chunks = chunks.thenCompose(done -> readChunk(request, items, operation));
    }
    return chunks.thenApply(done -> items);
  }

  private CompletableFuture<Void> readChunk(Map<String, KeysAndAttributes> request,
      List<Map<String, AttributeValue>> items, OperationRecorder.Operation operation) {
    return CompletableFutures.translateFailure(
            client.batchGetItem(BatchGetItemRequest.builder().requestItems(request).build(), operation),
            failure -> failure instanceof ResourceNotFoundException missing
                ? new MissingTableException(List.of(table), missing) : failure)
        .thenCompose(response -> {
          items.addAll(response.responses().getOrDefault(table, List.of()));
          Map<String, KeysAndAttributes> unprocessed = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
          if (unprocessed.isEmpty()) {
            return CompletableFuture.completedFuture(null);
          }
          if (ConsistentBatchReader.madeProgress(request.get(table).keys().size(), unprocessed, table)) {
            return readChunk(unprocessed, items, operation);
          }
          Optional<Duration> pause = operation.budget().pauseBeforeRetry(FailureKind.TRANSIENT, "UnprocessedKeys");
          if (pause.isEmpty()) {
            throw new StoreUnavailableException("BatchGetItem on [" + table + "]",
                operation.budget().failedAttempts(), FailureKind.TRANSIENT, "UnprocessedKeys", null);
          }
          return CompletableFutures.after(pause.get(), client.executor(), () -> readChunk(unprocessed, items, operation));
        });
  }
}
