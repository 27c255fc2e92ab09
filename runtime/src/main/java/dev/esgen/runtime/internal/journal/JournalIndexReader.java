package dev.esgen.runtime.internal.journal;

import static dev.esgen.runtime.internal.journal.JournalAttributes.AID;
import static dev.esgen.runtime.internal.journal.JournalAttributes.PKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.SKEY;
import static dev.esgen.runtime.internal.journal.JournalAttributes.VERSION;

import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.CorruptStreamException;
import dev.esgen.runtime.error.MissingTableException;
import dev.esgen.runtime.index.IndexColumn;
import dev.esgen.runtime.internal.index.SlotIndexQuery;
import dev.esgen.runtime.internal.index.UniqueReservations;
import dev.esgen.runtime.internal.keys.JournalKeys;
import dev.esgen.runtime.internal.storage.LoadedStream;
import dev.esgen.runtime.internal.storage.ShardedListing;
import dev.esgen.runtime.query.Page;
import dev.esgen.runtime.query.PageRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * The journal layout's lookups: through a unique value's reservation, through an index slot's global
 * secondary index, and over all head rows of an aggregate type.
 */
final class JournalIndexReader {

  private final DynamoDbClient client;
  private final StoreConfig config;
  private final JournalLoader loader;
  private final UniqueReservations reservations;
  private final SlotIndexQuery slots;

  JournalIndexReader(DynamoDbClient client, StoreConfig config, JournalLoader loader) {
    this.client = client;
    this.config = config;
    this.loader = loader;
    this.reservations = new UniqueReservations(config.snapshotTable());
    this.slots = new SlotIndexQuery(client, config.snapshotTable());
  }

  <A, I, E> Optional<I> findUnique(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, boolean consistent) {
    return reservations.holder(client, definition.name(), column, value, consistent).map(definition.keys()::parseId);
  }

  <A, I, E> Page<I> findIndexed(
      AggregateDefinition<A, I, E> definition, IndexColumn column, String value, PageRequest page) {
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    return slots.find(definition, column, value, page, aid -> Map.of(
        PKEY, AttributeValue.fromS(keys.partitionKey(aid)),
        SKEY, AttributeValue.fromS(keys.headSortKey(aid))));
  }

  /**
   * Head rows shard by shard, each shard in sort-key order ({@code {aggregate}-{aid}-0...0}: by aid, but {@code a!}, {@code a-} and {@code a-0} before {@code a}):
   * a strongly consistent query per partition, keeping only head rows (the ones with a version).
   *
   */
  <A, I, E> Page<LoadedStream<A>> listAll(AggregateDefinition<A, I, E> definition, PageRequest page) {
    JournalKeys keys = new JournalKeys(definition.name(), definition.shards());
    Page<Map<String, AttributeValue>> heads = listing(definition).page(page, (shard, start, limit) ->
        query(listQuery(config, definition, shard, start, limit)));
    return heads.map(head ->
        loader.fromHead(definition, keys, head.get(AID).s(), inItsPartition(definition, keys, head), true,
            Optional.empty()));
  }

  /**
   * {@code head}, a listed head row, after checking that it is where the definition's shard count puts its
   * stream. After a change of {@code shards} a head row stays in its old partition, where the listing still
   * finds it but a load, looking in the new one, does not: listed, it would show a stream nothing else finds
   * (and that a create could start again), folded with its events looked for in the wrong partition.
   *
   * @throws CorruptStreamException naming both partitions and the remedy
   */
  static Map<String, AttributeValue> inItsPartition(
      AggregateDefinition<?, ?, ?> definition, JournalKeys keys, Map<String, AttributeValue> head) {
    String aid = head.get(AID).s();
    String stored = head.get(PKEY).s();
    String expected = keys.partitionKey(aid);
    if (!stored.equals(expected)) {
      throw MisplacedHeadRow.error(definition, aid, stored, expected);
    }
    return head;
  }

  /** The listing of {@code definition}'s head rows, shard by shard. */
  static ShardedListing listing(AggregateDefinition<?, ?, ?> definition) {
    return new ShardedListing(definition.name(), definition.shards(), positions(definition));
  }

  /** One query page of {@code shard}'s head rows after {@code start} (null: from the beginning). */
  static QueryRequest listQuery(StoreConfig config, AggregateDefinition<?, ?, ?> definition, int shard,
      Map<String, AttributeValue> start, int limit) {
    return QueryRequest.builder()
        .tableName(config.snapshotTable())
        .keyConditionExpression("#pkey = :pkey")
        .filterExpression("attribute_exists(#version)")
        .expressionAttributeNames(Map.of("#pkey", PKEY, "#version", VERSION))
        .expressionAttributeValues(Map.of(":pkey", AttributeValue.fromS(partition(definition, shard))))
        .consistentRead(true)
        .limit(limit)
        .exclusiveStartKey(start)
        .build();
  }

  /**
   * A listing cursor keeps the sort key of the last row read; the partition follows from the shard. The
   * filter leaves out older snapshot rows only after DynamoDB read them, so that row may be one of those.
   */
  private static ShardedListing.Positions positions(AggregateDefinition<?, ?, ?> definition) {
    return new ShardedListing.Positions() {
      @Override
      public Map<String, AttributeValue> position(Map<String, AttributeValue> lastEvaluatedKey) {
        return Map.of(SKEY, lastEvaluatedKey.get(SKEY));
      }

      @Override
      public Optional<Map<String, AttributeValue>> startKey(int shard, Map<String, AttributeValue> position) {
        AttributeValue skey = position.get(SKEY);
        return position.size() == 1 && skey != null && SlotIndexQuery.isRangeKey(skey.s())
            ? Optional.of(Map.of(PKEY, AttributeValue.fromS(partition(definition, shard)), SKEY, skey))
            : Optional.empty();
      }
    };
  }

  /** The partition key of {@code shard}, which {@link JournalKeys} computes only from an aid. */
  private static String partition(AggregateDefinition<?, ?, ?> definition, int shard) {
    return definition.name() + "-" + shard;
  }

  private QueryResponse query(QueryRequest request) {
    try {
      return client.query(request);
    } catch (ResourceNotFoundException e) {
      throw new MissingTableException(List.of(config.snapshotTable()), e);
    }
  }

}
