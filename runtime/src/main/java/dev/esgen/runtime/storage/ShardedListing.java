package dev.esgen.runtime.storage;

import dev.esgen.runtime.index.SlotIndexQuery;
import dev.esgen.runtime.query.Cursors;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Pages through a listing that is spread over an aggregate type's shard partitions: shard 0 first, each
 * shard in the order its query returns, one query page after another until the page is full.
 *
 * <p>A cursor is either the last key read (the listing goes on after it, in the shard that key names) or,
 * when a shard was read to its end exactly as the page filled, a marker naming the next shard to start.
 * Both layouts list this way; they differ only in the query per shard and in how a key becomes a cursor.
 *
 * <pre>{@code
 * ShardedListing listing = new ShardedListing(PKEY, Cursors::encode, Cursors::decode);
 * Page<Map<String, AttributeValue>> heads =
 *     listing.page(definition.shards(), page, (shard, start, limit) -> client.query(...));
 * }</pre>
 */
public final class ShardedListing {

  /** The cursor entry that starts at the beginning of a shard rather than after a key. */
  private static final String SHARD = "shard";

  /** One query page of one shard, starting after {@code start} (null: at the shard's beginning). */
  @FunctionalInterface
  public interface ShardQuery {
    QueryResponse query(int shard, Map<String, AttributeValue> start, int limit);
  }

  private final String shardKeyAttribute;
  private final Function<Map<String, AttributeValue>, String> toCursor;
  private final Function<String, Map<String, AttributeValue>> fromCursor;

  /**
   * @param shardKeyAttribute the key attribute whose value ends in {@code -{shard}}
   * @param toCursor how a last-evaluated key becomes a cursor
   * @param fromCursor how such a cursor becomes an exclusive start key again
   */
  public ShardedListing(
      String shardKeyAttribute,
      Function<Map<String, AttributeValue>, String> toCursor,
      Function<String, Map<String, AttributeValue>> fromCursor) {
    this.shardKeyAttribute = shardKeyAttribute;
    this.toCursor = toCursor;
    this.fromCursor = fromCursor;
  }

  /** Up to {@code page.size()} items from the shards {@code 0 .. shards - 1}, and where to go on. */
  public Page<Map<String, AttributeValue>> page(int shards, PageRequest page, ShardQuery query) {
    int shard = 0;
    Map<String, AttributeValue> start = null;
    if (page.cursor().isPresent()) {
      Map<String, AttributeValue> cursor = Cursors.decode(page.cursor().get());
      if (cursor.containsKey(SHARD)) {
        shard = Integer.parseInt(cursor.get(SHARD).s());
      } else {
        String shardKey = cursor.get(shardKeyAttribute).s();
        shard = Integer.parseInt(shardKey.substring(shardKey.lastIndexOf('-') + 1));
        start = fromCursor.apply(page.cursor().get());
      }
    }
    List<Map<String, AttributeValue>> items = new ArrayList<>();
    while (shard < shards) {
      QueryResponse response = query.query(shard, start, page.size() - items.size());
      items.addAll(response.items());
      Optional<String> next = SlotIndexQuery.next(response, toCursor);
      if (next.isPresent()) {
        start = response.lastEvaluatedKey();
        if (items.size() == page.size()) {
          return new Page<>(items, next);
        }
      } else {
        shard++;
        start = null;
        if (items.size() == page.size()) {
          return new Page<>(items, shard < shards
              ? Optional.of(Cursors.encode(Map.of(SHARD, AttributeValue.fromS(Integer.toString(shard)))))
              : Optional.empty());
        }
      }
    }
    return new Page<>(items, Optional.empty());
  }
}
