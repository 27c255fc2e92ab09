package dev.esgen.runtime.internal.tip;

import static dev.esgen.runtime.internal.tip.TipAttributes.AID;
import static dev.esgen.runtime.internal.tip.TipAttributes.INDEX;
import static dev.esgen.runtime.internal.tip.TipAttributes.LISTING;
import static dev.esgen.runtime.internal.tip.TipAttributes.STREAM;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.index.SlotIndexQuery;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.keys.TipKeys;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.ShardedListing;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The tip layout's lookups: through a unique value's reservation (in the snapshot table, shared with the
 * journal layout), through an index slot's global secondary index on the tip table, and over all tips of
 * an aggregate type through the listing index {@link TipKeys#LISTING_INDEX}.
 *
 * <p>Every item in these indexes is a tip, whose table key follows from its aid ({@code p} is the stream
 * name, {@code i} always {@link TipKeys#TIP_INDEX}), so cursors keep only the last aid read.
 */
final class TipIndexReader {

  private final DynamoDbClient client;
  private final StoreConfig config;
  private final TipLoader loader;
  private final UniqueReservations reservations;
  private final SlotIndexQuery slots;

  TipIndexReader(DynamoDbClient client, StoreConfig config, TipLoader loader) {
    this.client = client;
    this.config = config;
    this.loader = loader;
    this.reservations = new UniqueReservations(config.snapshotTable());
    this.slots = new SlotIndexQuery(client, config.tipTable());
  }

  <A, I, E> Optional<I> findUnique(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, boolean consistent) {
    return reservations.holder(client, definition.name(), column, value, consistent).map(definition.keys()::parseId);
  }

  <A, I, E> Page<I> findIndexed(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, PageRequest page) {
    TipKeys keys = new TipKeys(definition.name());
    return slots.find(definition, column, value, page, aid -> tipKey(keys, aid));
  }

  /**
   * Tips shard by shard (0 first), within a shard by aid: a query of the listing index per shard, then
   * the tips of the page's ids in one consistent {@code BatchGetItem}. The listing index is eventually
   * consistent, so a stream created a moment ago may be missing; every stream listed is read consistently.
   */
  <A, I, E> Page<LoadedStream<A>> listAll(AggregateDefinition<A, I, E> definition, PageRequest page) {
    Page<Map<String, AttributeValue>> listed = listing(definition).page(page, (shard, start, limit) ->
        slots.run(listQuery(config, definition, shard, start, limit), definition.name(), "listAll"));
    return new Page<>(List.copyOf(loader.loadAll(definition, ids(definition, listed), true, Map.of()).values()),
        listed.nextCursor());
  }

  /** The listing of {@code definition}'s tips, shard by shard. */
  static ShardedListing listing(AggregateDefinition<?, ?, ?> definition) {
    return new ShardedListing(definition.name(), definition.shards(), positions(new TipKeys(definition.name())));
  }

  /** One query page of the listing index for {@code shard}, after {@code start} (null: from the beginning). */
  static QueryRequest listQuery(StoreConfig config, AggregateDefinition<?, ?, ?> definition, int shard,
      Map<String, AttributeValue> start, int limit) {
    return QueryRequest.builder()
        .tableName(config.tipTable())
        .indexName(TipKeys.LISTING_INDEX)
        .keyConditionExpression("#lk = :lk")
        .expressionAttributeNames(Map.of("#lk", LISTING))
        .expressionAttributeValues(Map.of(":lk", AttributeValue.fromS(new TipKeys(definition.name()).listingKey(shard))))
        .limit(limit)
        .exclusiveStartKey(start)
        .build();
  }

  /** The ids of the tips a listing page names. */
  static <I> List<I> ids(AggregateDefinition<?, I, ?> definition, Page<Map<String, AttributeValue>> listed) {
    return listed.items().stream().map(item -> definition.keys().parseId(item.get(AID).s())).toList();
  }

  /** A listing cursor keeps the last aid read; the listing index's hash key follows from the shard. */
  private static ShardedListing.Positions positions(TipKeys keys) {
    return new ShardedListing.Positions() {
      @Override
      public Map<String, AttributeValue> position(Map<String, AttributeValue> lastEvaluatedKey) {
        return SlotIndexQuery.position(lastEvaluatedKey);
      }

      @Override
      public Optional<Map<String, AttributeValue>> startKey(int shard, Map<String, AttributeValue> position) {
        return SlotIndexQuery.aid(position).map(aid -> {
          Map<String, AttributeValue> key = new HashMap<>(tipKey(keys, aid));
          key.put(LISTING, AttributeValue.fromS(keys.listingKey(shard)));
          key.put(AID, AttributeValue.fromS(aid));
          return key;
        });
      }
    };
  }

  /** The table key of the tip of {@code aid}. */
  static Map<String, AttributeValue> tipKey(TipKeys keys, String aid) {
    return Map.of(STREAM, AttributeValue.fromS(keys.streamName(aid)), INDEX, TipLoader.index(TipKeys.TIP_INDEX));
  }
}
