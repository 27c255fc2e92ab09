package dev.esgen.runtime.internal.storage;

import dev.esgen.runtime.error.InvalidCursorException;
import dev.esgen.runtime.internal.index.SlotIndexQuery;
import dev.esgen.runtime.internal.query.Cursors;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Pages through {@code listAll} of an aggregate type, spread over its shard partitions: shard 0 first,
 * each shard in the order its query returns, one query page after another until the page is full.
 *
 * <p>A cursor names the shard to go on in and, unless that shard starts from its beginning (it is the
 * next one after a shard read to its end exactly as the page filled), the layout's position in it: what
 * the layout keeps of the last key read, from which it rebuilds the start key. Both layouts list this
 * way; they differ only in the query per shard and in their {@link Positions}.
 *
 * <pre>{@code
 * Page<Map<String, AttributeValue>> heads = new ShardedListing("bank-account", 4, positions)
 *     .page(page, (shard, start, limit) -> client.query(...));
 * }</pre>
 */
public final class ShardedListing {

  /** The cursor entry naming the shard; positions use other names. */
  private static final String SHARD = "shard";

  /** One query page of one shard, starting after {@code start} (null: at the shard's beginning). */
  @FunctionalInterface
  public interface ShardQuery {
    QueryResponse query(int shard, Map<String, AttributeValue> start, int limit);
  }

  /** How a layout's last-evaluated keys become cursor positions and back. */
  public interface Positions {

    /** What a cursor keeps of a shard query's last-evaluated key, in attributes not named "shard". */
    Map<String, AttributeValue> position(Map<String, AttributeValue> lastEvaluatedKey);

    /**
     * The exclusive start key of {@code shard}'s query after {@code position}; empty when the position
     * is not one that query returns, so that DynamoDB never sees a start key it would reject.
     */
    Optional<Map<String, AttributeValue>> startKey(int shard, Map<String, AttributeValue> position);
  }

  private record Start(int shard, Map<String, AttributeValue> key) {}

  private final Cursors cursors;
  private final int shards;
  private final Positions positions;

  /** The listing of every {@code aggregateName}, in {@code shards} shards. */
  public ShardedListing(String aggregateName, int shards, Positions positions) {
    this.cursors = Cursors.listAll(aggregateName);
    this.shards = shards;
    this.positions = positions;
  }

  /**
   * Up to {@code page.size()} items from the shards {@code 0 .. shards - 1}, and where to go on.
   *
   * @throws InvalidCursorException when the page's cursor is not one of this listing
   */
  public Page<Map<String, AttributeValue>> page(PageRequest page, ShardQuery query) {
    Walk walk = walk(page);
    while (walk.pending()) {
      walk.accept(query.query(walk.shard(), walk.startKey(), walk.limit()));
    }
    return walk.page();
  }

  /**
   * The walk to one page, query page by query page, for a caller that sends the queries itself (the
   * asynchronous layouts): while it is {@link Walk#pending()}, send the query it names and
   * {@link Walk#accept} the response; then take its {@link Walk#page()}.
   *
   * @throws InvalidCursorException when the page's cursor is not one of this listing
   */
  public Walk walk(PageRequest page) {
    Start from = page.cursor().map(cursor -> cursors.decode(cursor, this::start)).orElse(new Start(0, null));
    return new Walk(page.size(), from.shard(), from.key());
  }

  /** Where the walk to one page stands: the shard and start key of the next query, the items so far. */
  public final class Walk {
    private final int size;
    private final List<Map<String, AttributeValue>> items = new ArrayList<>();
    private int shard;
    private Map<String, AttributeValue> start;
    private Page<Map<String, AttributeValue>> done;

    private Walk(int size, int shard, Map<String, AttributeValue> start) {
      this.size = size;
      this.shard = shard;
      this.start = start;
    }

    /** Whether another query is needed. */
    public boolean pending() {
      return done == null && shard < shards;
    }

    public int shard() {
      return shard;
    }

    /** The exclusive start key of the next query; null at the shard's beginning. */
    public Map<String, AttributeValue> startKey() {
      return start;
    }

    /** How many items the next query may return. */
    public int limit() {
      return size - items.size();
    }

    /** Takes the response of the query {@link #shard()}, {@link #startKey()} and {@link #limit()} named. */
    public void accept(QueryResponse response) {
      items.addAll(response.items());
      if (SlotIndexQuery.hasMore(response)) {
        start = response.lastEvaluatedKey();
        if (items.size() == size) {
          done = new Page<>(items, Optional.of(cursor(shard, positions.position(start))));
        }
      } else {
        shard++;
        start = null;
        if (items.size() == size) {
          done = new Page<>(items, shard < shards ? Optional.of(cursor(shard, Map.of())) : Optional.empty());
        }
      }
    }

    /** The page, once no query is {@link #pending()}. */
    public Page<Map<String, AttributeValue>> page() {
      return done != null ? done : new Page<>(items, Optional.empty());
    }
  }

  private String cursor(int shard, Map<String, AttributeValue> position) {
    Map<String, AttributeValue> entries = new HashMap<>(position);
    entries.put(SHARD, AttributeValue.fromS(Integer.toString(shard)));
    return cursors.encode(entries);
  }

  /** Where a cursor's entries say to go on, if they name one of the shards and a position the layout takes. */
  private Optional<Start> start(Map<String, AttributeValue> entries) {
    Map<String, AttributeValue> position = new HashMap<>(entries);
    AttributeValue named = position.remove(SHARD);
    // Digits only, as written: parseInt would also take a sign, and more than 9 digits may overflow.
    if (named == null || !named.s().matches("0|[1-9][0-9]{0,8}") || Integer.parseInt(named.s()) >= shards) {
      return Optional.empty();
    }
    int shard = Integer.parseInt(named.s());
    return position.isEmpty()
        ? Optional.of(new Start(shard, null))
        : positions.startKey(shard, position).map(key -> new Start(shard, key));
  }
}
