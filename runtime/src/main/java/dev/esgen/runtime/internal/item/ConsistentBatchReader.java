package dev.esgen.runtime.internal.item;

import dev.esgen.runtime.error.FailureKind;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.error.StoreUnavailableException;
import dev.esgen.runtime.internal.retry.RetryBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Reads items of one table by key with {@code BatchGetItem} calls, strongly consistent unless asked
 * otherwise: the keys in chunks
 * of {@value #BATCH_LIMIT} (one chunk after the other), and each chunk's unprocessed keys asked for again
 * until none are left: at once when the call processed some of its keys (a response cut at 16 MB), after
 * a jittered pause drawing on the running operation's retry budget when it processed none. Both layouts
 * read many streams' head items this way.
 *
 * <pre>{@code
 * List<Map<String, AttributeValue>> items = new ConsistentBatchReader(client, "tip", recorder::currentBudget).read(keys);
 * }</pre>
 */
public final class ConsistentBatchReader {

  /** BatchGetItem reads at most 100 keys per call. */
  public static final int BATCH_LIMIT = 100;

  private final DynamoDbClient client;
  private final String table;
  private final Supplier<RetryBudget> budget;

  /** @param budget the retry budget of the operation running on the calling thread */
  public ConsistentBatchReader(DynamoDbClient client, String table, Supplier<RetryBudget> budget) {
    this.client = Objects.requireNonNull(client, "client");
    this.table = Objects.requireNonNull(table, "table");
    this.budget = Objects.requireNonNull(budget, "budget");
  }

  /**
   * The items found for {@code keys}, in no particular order; keys without an item are left out.
   *
   * @throws MissingTableException when the table does not exist
   * @throws StoreUnavailableException when calls process none of their keys until the retry budget is spent
   */
  public List<Map<String, AttributeValue>> read(List<Map<String, AttributeValue>> keys) {
    return read(keys, true);
  }

  /** As {@link #read(List)}, eventually consistent (half the read units) unless {@code consistent}. */
  public List<Map<String, AttributeValue>> read(List<Map<String, AttributeValue>> keys, boolean consistent) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += BATCH_LIMIT) {
      items.addAll(readChunk(keys.subList(from, Math.min(keys.size(), from + BATCH_LIMIT)), consistent));
    }
    return items;
  }

  private List<Map<String, AttributeValue>> readChunk(List<Map<String, AttributeValue>> keys, boolean consistent) {
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    Map<String, KeysAndAttributes> request =
        Map.of(table, KeysAndAttributes.builder().keys(keys).consistentRead(consistent).build());
    RetryBudget retries = budget.get();
    while (!request.isEmpty()) {
      BatchGetItemResponse response;
      try {
        Map<String, KeysAndAttributes> pending = request;
        response = client.batchGetItem(b -> b.requestItems(pending));
      } catch (ResourceNotFoundException e) {
        throw new MissingTableException(List.of(table), e);
      }
      items.addAll(response.responses().getOrDefault(table, List.of()));
      int asked = pendingKeys(request, table);
      request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
      if (!request.isEmpty() && !madeProgress(asked, request, table)
          && !retries.retry(FailureKind.TRANSIENT, "UnprocessedKeys")) {
        throw new StoreUnavailableException("BatchGetItem on [" + table + "]", retries.failedAttempts(),
            FailureKind.TRANSIENT, "UnprocessedKeys", null);
      }
    }
    return items;
  }

  /**
   * Whether a call that was asked for {@code asked} keys of {@code table} and left {@code unprocessed}
   * processed any of them. DynamoDB answers in part without any throttling when the response would pass
   * 16 MB (about 44 items of 380 KB) or a partition's 1 MB: then the rest is asked for at once and the
   * operation's retry budget is left alone, or a read of a few hundred large items would spend it and
   * fail. Each such call leaves fewer keys, so the loop ends. Only a call that processed none of them
   * (throttled on every key) pauses and counts as a failed attempt.
   */
  static boolean madeProgress(int asked, Map<String, KeysAndAttributes> unprocessed, String table) {
    return pendingKeys(unprocessed, table) < asked;
  }

  private static int pendingKeys(Map<String, KeysAndAttributes> request, String table) {
    KeysAndAttributes keys = request.get(table);
    return keys == null ? 0 : keys.keys().size();
  }
}
