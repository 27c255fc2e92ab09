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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

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

  /** A cursor that starts at the beginning of a shard rather than after a key. */
  private static final String SHARD = "shard";

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
    int shard = 0;
    Map<String, AttributeValue> start = null;
    if (page.cursor().isPresent()) {
      Map<String, AttributeValue> cursor = Cursors.decode(page.cursor().get());
      if (cursor.containsKey(SHARD)) {
        shard = Integer.parseInt(cursor.get(SHARD).s());
      } else {
        String listing = cursor.get(LISTING).s();
        shard = Integer.parseInt(listing.substring(listing.lastIndexOf('-') + 1));
        start = startKey(page.cursor().get());
      }
    }
    List<I> ids = new ArrayList<>();
    Optional<String> nextCursor = Optional.empty();
    while (shard < definition.shards()) {
      QueryResponse response = slots.run(QueryRequest.builder()
          .tableName(config.tipTable())
          .indexName(TipKeys.LISTING_INDEX)
          .keyConditionExpression("#lk = :lk")
          .expressionAttributeNames(Map.of("#lk", LISTING))
          .expressionAttributeValues(Map.of(":lk", AttributeValue.fromS(keys.listingKey(shard))))
          .limit(page.size() - ids.size())
          .exclusiveStartKey(start)
          .build(), definition.name(), "listAll");
      response.items().forEach(item -> ids.add(definition.keys().parseId(item.get(AID).s())));
      Optional<String> next = next(response);
      if (next.isPresent()) {
        start = response.lastEvaluatedKey();
        if (ids.size() == page.size()) {
          nextCursor = next;
          break;
        }
      } else {
        shard++;
        start = null;
        if (ids.size() == page.size()) {
          nextCursor = shard < definition.shards()
              ? Optional.of(Cursors.encode(Map.of(SHARD, AttributeValue.fromS(Integer.toString(shard)))))
              : Optional.empty();
          break;
        }
      }
    }
    return new Page<>(List.copyOf(loader.loadAll(definition, ids).values()), nextCursor);
  }

  private static Optional<String> next(QueryResponse response) {
    return SlotIndexQuery.next(response, TipIndexReader::cursor);
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
