package dev.esgen.bench.e2e;

import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.CartVariants;
import dev.esgen.bench.domain.CodeChanged;
import dev.esgen.bench.domain.OwnerChanged;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

/**
 * What index columns cost an append, as DynamoDB reports it with {@code ReturnConsumedCapacity=INDEXES}:
 * the write units of each table and of each global secondary index, for an append that changes no index
 * value (on the cart with index columns and on the same cart without them) and for appends that change
 * the {@code @Indexed} owner or the {@code @Unique} code. Each case runs on a few fresh carts; the
 * figures are those of the last (they do not vary on DynamoDB Local), with the GSI units of every run
 * summed so that a stray index write shows.
 */
public final class IndexWriteCost {

  private static final StoreConfig CONFIG = StoreConfig.defaults();
  private static final int RUNS = 3;

  /**
   * One case: the write capacity of its append.
   *
   * @param layout the storage layout
   * @param append what the append was and on which cart
   * @param requests requests the write sent (the load before it not counted)
   * @param tableUnits write units per table (GSI units not included where DynamoDB breaks them out)
   * @param indexUnits write units per global secondary index; empty when none was reported
   * @param indexUnitsAllRuns GSI write units over all runs of the case
   */
  public record Row(String layout, String append, long requests, Map<String, Double> tableUnits,
      Map<String, Double> indexUnits, double indexUnitsAllRuns) {}

  private final URI endpoint;

  public IndexWriteCost(URI endpoint) {
    this.endpoint = endpoint;
  }

  public static final String NO_CHANGE = "no index value changed (1 small event), cart with index columns";
  public static final String NO_COLUMNS = "1 small event, the same cart without index columns";
  public static final String INDEXED_CHANGED = "@Indexed owner changed";
  public static final String UNIQUE_CHANGED = "@Unique code changed";

  public List<Row> run() {
    Meter meter = new Meter();
    List<Row> rows = new ArrayList<>();
    try (DynamoDbClient client = Clients.local(endpoint, Optional.of(meter))) {
      DynamoDbEventStore store = DynamoDbEventStore.create(client, CONFIG);
      CartRepository indexed = new CartRepository(store);
      EventSourcedRepository<Cart, CartId, CartEvent> plain = new CartVariants.Repository(store,
          CartVariants.withoutIndexColumns(CartRepository.definition(store.objectMapper())));
      cases(meter, rows, "journal", indexed, plain);
      AggregateDefinition<Cart, CartId, CartEvent> tip = CartVariants.tip(CartRepository.definition(store.objectMapper()));
      cases(meter, rows, "tip", new CartVariants.Repository(store, tip),
          new CartVariants.Repository(store, CartVariants.withoutIndexColumns(tip)));
    }
    return rows;
  }

  private void cases(Meter meter, List<Row> rows, String layout, EventSourcedRepository<Cart, CartId, CartEvent> indexed,
      EventSourcedRepository<Cart, CartId, CartEvent> plain) {
    rows.add(measure(meter, layout, NO_CHANGE, indexed, id -> SmallEvent.EVENT));
    rows.add(measure(meter, layout, NO_COLUMNS, plain, id -> SmallEvent.EVENT));
    rows.add(measure(meter, layout, INDEXED_CHANGED, indexed, id -> new OwnerChanged("owner-" + UUID.randomUUID())));
    rows.add(measure(meter, layout, UNIQUE_CHANGED, indexed, id -> new CodeChanged("C-" + UUID.randomUUID())));
  }

  private Row measure(Meter meter, String layout, String name, EventSourcedRepository<Cart, CartId, CartEvent> carts,
      java.util.function.Function<CartId, CartEvent> event) {
    Row last = null;
    double indexUnits = 0;
    for (int run = 0; run < RUNS; run++) {
      CartId id = CartId.random();
      carts.create(CartOpened.of(id, "benchmark-owner"));
      CartEvent e = event.apply(id);
      Meter.Reading before = meter.read();
      carts.append(id, 1, List.of(e));
      Meter.Reading used = meter.read().minus(before);
      Map<String, Double> tables = new LinkedHashMap<>();
      Map<String, Double> indexes = new LinkedHashMap<>();
      for (ConsumedCapacity capacity : meter.lastWrite()) {
        double gsi = 0;
        if (capacity.hasGlobalSecondaryIndexes()) {
          for (Map.Entry<String, Capacity> index : capacity.globalSecondaryIndexes().entrySet()) {
            double units = index.getValue().capacityUnits() == null ? 0 : index.getValue().capacityUnits();
            indexes.merge(index.getKey(), units, Double::sum);
            gsi += units;
          }
        }
        double table = capacity.table() != null && capacity.table().capacityUnits() != null
            ? capacity.table().capacityUnits()
            : capacity.capacityUnits() - gsi;
        tables.merge(capacity.tableName(), table, Double::sum);
      }
      indexUnits += used.indexWriteUnits();
      // The append's own write: the requests after the load it starts with.
      last = new Row(layout, name, used.requests() - 1, tables, indexes, indexUnits);
    }
    return last;
  }
}
