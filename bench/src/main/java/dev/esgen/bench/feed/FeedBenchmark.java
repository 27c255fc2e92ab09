package dev.esgen.bench.feed;

import dev.esgen.bench.Settings;
import dev.esgen.bench.domain.Cart;
import dev.esgen.bench.domain.CartEvent;
import dev.esgen.bench.domain.CartId;
import dev.esgen.bench.domain.CartOpened;
import dev.esgen.bench.domain.CartRepository;
import dev.esgen.bench.domain.CartVariants;
import dev.esgen.bench.measure.Clients;
import dev.esgen.bench.measure.Meter;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.codec.EsgenJson;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.feed.ChangeFeed;
import dev.esgen.runtime.feed.FeedListener;
import dev.esgen.runtime.feed.GapRead;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.streams.CheckpointTable;
import dev.esgen.runtime.streams.PollResult;
import dev.esgen.runtime.streams.StreamPoller;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * What the change feed costs per projected event: streams of carts are written first, then one
 * {@link StreamPoller} hands the table's DynamoDB stream to a {@link ChangeFeed} until it is idle. The
 * feed's own requests and capacity (positions, gap reads, the exactly-once transactions) are metered
 * apart from the poller's checkpoints; the wall time of the delivery gives events per second for one
 * consumer. Each case runs on tables of its own, so its stream holds only its own records.
 *
 * <p>Every delivered event is counted per stream, so a lost or doubled event shows in the result.
 */
public final class FeedBenchmark {

  /** The two ways a projection takes events. */
  public enum Delivery {
    AT_LEAST_ONCE("at least once"),
    EXACTLY_ONCE("exactly once, one read-model write per event");

    private final String label;

    Delivery(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * One case.
   *
   * @param handleCalls batches the poller handed to the feed
   * @param projected events the read model holds after the run (exactly once) or the handler took (at least once)
   * @param doubled events taken more than once
   * @param missing stored events never taken
   * @param feed what the feed sent to DynamoDB while delivering
   * @param checkpoints what the poller sent to its checkpoint table
   */
  public record Result(String layout, Delivery delivery, int streams, int events, int handleCalls, long gapReads,
      long projected, long doubled, long missing, Meter.Reading feed, Meter.Reading checkpoints, double seconds) {

    public double requestsPerEvent() {
      return feed.requests() / (double) events;
    }

    public double readUnitsPerEvent() {
      return feed.readUnits() / events;
    }

    public double writeUnitsPerEvent() {
      return feed.writeUnits() / events;
    }

    public double eventsPerSecond() {
      return events / seconds;
    }
  }

  private final Settings settings;
  private final URI endpoint;

  public FeedBenchmark(Settings settings, URI endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
  }

  public List<Result> run() throws InterruptedException {
    AggregateDefinition<Cart, CartId, CartEvent> journal = CartRepository.definition(EsgenJson.newObjectMapper());
    List<Result> results = new ArrayList<>();
    for (Delivery delivery : Delivery.values()) {
      results.add(measure("journal", journal, delivery));
      results.add(measure("tip", CartVariants.tip(journal), delivery));
    }
    return results;
  }

  private Result measure(String layout, AggregateDefinition<Cart, CartId, CartEvent> definition, Delivery delivery)
      throws InterruptedException {
    String prefix = "feed-" + layout + "-" + delivery.name().toLowerCase().replace('_', '-') + "-";
    StoreConfig config = StoreConfig.defaults()
        .withJournalTable(prefix + "journal")
        .withSnapshotTable(prefix + "snapshot")
        .withTipTable(prefix + "streams")
        .withPositionsTable(prefix + "positions");
    String readModel = prefix + "read-model";
    String checkpointTable = prefix + "checkpoints";
    int streams = settings.feedStreams();
    int perStream = settings.feedEventsPerStream();
    Meter feedMeter = new Meter();
    Meter checkpointMeter = new Meter();
    try (DynamoDbClient setup = Clients.local(endpoint, Optional.empty());
        DynamoDbClient feedClient = Clients.local(endpoint, Optional.of(feedMeter));
        DynamoDbClient pollerClient = Clients.local(endpoint, Optional.of(checkpointMeter));
        DynamoDbStreamsClient streamsClient = streamsClient()) {
      TableProvisioner provisioner = new TableProvisioner(setup, config);
      provisioner.createTablesIfMissing(definition);
      provisioner.enableChangeFeed();
      CheckpointTable.createIfMissing(setup, checkpointTable);
      createReadModel(setup, readModel);

      CartVariants.Repository carts = new CartVariants.Repository(DynamoDbEventStore.create(setup, config), definition);
      List<CartId> ids = new ArrayList<>();
      for (int s = 0; s < streams; s++) {
        CartId id = CartId.random();
        carts.create(CartOpened.of(id, "feed-owner"));
        for (int e = 1; e < perStream; e++) {
          carts.transact(id, c -> c.add("sku", 1, 100));
        }
        ids.add(id);
      }

      Map<String, List<Long>> taken = new ConcurrentHashMap<>();
      LongAdder gapReads = new LongAdder();
      EventStore feedStore = DynamoDbEventStore.create(feedClient, config);
      ChangeFeed.Builder builder = ChangeFeed.builder(feedStore).listener(new FeedListener() {
        @Override
        public void onGapRead(GapRead gap) {
          gapReads.increment();
        }
      });
      if (delivery == Delivery.AT_LEAST_ONCE) {
        builder.projection("feed-bench", definition,
            e -> taken.computeIfAbsent(e.aggregateId(), k -> new ArrayList<>()).add(e.seqNr()));
      } else {
        builder.transactionalProjection("feed-bench", definition, e -> List.of(TransactWriteItem.builder()
            .update(u -> u.tableName(readModel)
                .key(Map.of("stream", AttributeValue.fromS(e.aggregateId())))
                // A set of seq_nrs hides a doubled event, the count shows it.
                .updateExpression("ADD events :one, seq_nrs :seq")
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"),
                    ":seq", AttributeValue.fromNs(List.of(Long.toString(e.seqNr()))))))
            .build()));
      }
      ChangeFeed feed = builder.build();
      AtomicInteger handleCalls = new AtomicInteger();

      long start;
      long end;
      try (StreamPoller poller = StreamPoller.builder()
          .streamsClient(streamsClient)
          .dynamoDbClient(pollerClient)
          .tableName(definition.layout() == LayoutKind.TIP ? config.tipTable() : config.journalTable())
          .checkpointTable(checkpointTable)
          .consumer("feed-bench")
          .handler((shardId, records) -> {
            handleCalls.incrementAndGet();
            feed.handle(shardId, records);
          })
          .build()) {
        Meter.Reading feedBefore = feedMeter.read();
        start = System.nanoTime();
        pollUntilIdle(poller);
        end = System.nanoTime();
        Meter.Reading feedUsed = feedMeter.read().minus(feedBefore);

        long projected = 0;
        long doubled = 0;
        long missing = 0;
        for (CartId id : ids) {
          String aid = id.value().toString();
          long count;
          long distinct;
          if (delivery == Delivery.AT_LEAST_ONCE) {
            List<Long> seqNrs = taken.getOrDefault(aid, List.of());
            count = seqNrs.size();
            distinct = seqNrs.stream().distinct().count();
          } else {
            Map<String, AttributeValue> item = setup.getItem(b -> b.tableName(readModel).consistentRead(true)
                .key(Map.of("stream", AttributeValue.fromS(aid)))).item();
            count = item.isEmpty() ? 0 : Long.parseLong(item.get("events").n());
            distinct = item.isEmpty() ? 0 : item.get("seq_nrs").ns().size();
          }
          projected += count;
          doubled += count - distinct;
          missing += perStream - distinct;
        }
        return new Result(layout, delivery, streams, streams * perStream, handleCalls.get(), gapReads.sum(),
            projected, doubled, missing, feedUsed, checkpointMeter.read(), (end - start) / 1e9);
      }
    }
  }

  /** Polls until a poll finds nothing more to read; DynamoDB Local's stream has every record at once. */
  private static void pollUntilIdle(StreamPoller poller) {
    for (int i = 0; i < 10_000; i++) {
      PollResult result = poller.pollOnce();
      if (!result.failingShards().isEmpty()) {
        throw new IllegalStateException("the feed failed on a batch; see the log of dev.esgen.runtime.feed");
      }
      if (!result.moreToRead()) {
        return;
      }
    }
    throw new IllegalStateException("the stream did not become idle within 10,000 polls");
  }

  private static void createReadModel(DynamoDbClient client, String table) {
    client.createTable(b -> b.tableName(table)
        .billingMode(BillingMode.PAY_PER_REQUEST)
        .attributeDefinitions(AttributeDefinition.builder()
            .attributeName("stream").attributeType(ScalarAttributeType.S).build())
        .keySchema(KeySchemaElement.builder().attributeName("stream").keyType(KeyType.HASH).build()));
    client.waiter().waitUntilTableExists(b -> b.tableName(table));
  }

  private DynamoDbStreamsClient streamsClient() {
    return DynamoDbStreamsClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(UrlConnectionHttpClient.builder())
        .build();
  }
}
