package dev.esgen.runtime.tip;

import static dev.esgen.runtime.tip.TipAttributes.AID;
import static dev.esgen.runtime.tip.TipAttributes.INDEX;
import static dev.esgen.runtime.tip.TipAttributes.LISTING;

import dev.esgen.runtime.StoreConfig;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.index.SlotIndexQuery;
import dev.esgen.runtime.index.UniqueReservations;
import dev.esgen.runtime.query.Cursors;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import dev.esgen.runtime.storage.LoadedStream;
import dev.esgen.runtime.storage.ShardedListing;
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
 * <p>Index queries return the tip table's keys, whose sort key {@code i} is a number; every item in these
 * indexes is a tip, whose {@code i} is always {@link TipKeys#TIP_INDEX}, so cursors leave it out (they
 * hold strings only) and it is put back when a cursor is read.
 */
final class TipIndexReader {

  private final DynamoDbClient client;
  private final StoreConfig config;
  private final TipLoader loader;
  private final UniqueReservations reservations;
  private final SlotIndexQuery slots;
  private final ShardedListing listing =
      new ShardedListing(LISTING, TipIndexReader::cursor, TipIndexReader::startKey);

  TipIndexReader(DynamoDbClient client, StoreConfig config, TipLoader loader) {
    this.client = client;
    this.config = config;
    this.loader = loader;
    this.reservations = new UniqueReservations(config.snapshotTable());
    this.slots = new SlotIndexQuery(client, config.tipTable());
  }

  <A, I, E> Optional<I> findUnique(AggregateDefinition<A, I, E> definition, IndexColumn column, String value) {
    return reservations.holder(client, definition.name(), column, value).map(definition.keys()::parseId);
  }

  <A, I, E> Page<I> findIndexed(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, PageRequest page) {
    return slots.find(definition, column, value, page, TipIndexReader::startKey, TipIndexReader::cursor);
  }

  /**
   * Tips shard by shard (0 first), within a shard by aid: a query of the listing index per shard, then
   * the tips of the page's ids in one consistent {@code BatchGetItem}. The listing index is eventually
   * consistent, so a stream created a moment ago may be missing; every stream listed is read consistently.
   */
  <A, I, E> Page<LoadedStream<A>> listAll(AggregateDefinition<A, I, E> definition, PageRequest page) {
    TipKeys keys = new TipKeys(definition.name());
    Page<Map<String, AttributeValue>> listed = listing.page(definition.shards(), page, (shard, start, limit) ->
        slots.run(QueryRequest.builder()
            .tableName(config.tipTable())
            .indexName(TipKeys.LISTING_INDEX)
            .keyConditionExpression("#lk = :lk")
            .expressionAttributeNames(Map.of("#lk", LISTING))
            .expressionAttributeValues(Map.of(":lk", AttributeValue.fromS(keys.listingKey(shard))))
            .limit(limit)
            .exclusiveStartKey(start)
            .build(), definition.name(), "listAll"));
    List<I> ids = listed.items().stream().map(item -> definition.keys().parseId(item.get(AID).s())).toList();
    return new Page<>(List.copyOf(loader.loadAll(definition, ids).values()), listed.nextCursor());
  }

  private static String cursor(Map<String, AttributeValue> lastEvaluatedKey) {
    Map<String, AttributeValue> key = new HashMap<>(lastEvaluatedKey);
    key.remove(INDEX);
    return Cursors.encode(key);
  }

  private static Map<String, AttributeValue> startKey(String cursor) {
    Map<String, AttributeValue> key = new HashMap<>(Cursors.decode(cursor));
    key.put(INDEX, TipLoader.index(TipKeys.TIP_INDEX));
    return key;
  }
}
