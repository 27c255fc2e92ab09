package dev.esgen.runtime.counter;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.aggregate.AggregateKeys;
import dev.esgen.runtime.aggregate.LayoutKind;
import dev.esgen.runtime.aggregate.Replay;
import dev.esgen.runtime.aggregate.SnapshotPolicy;
import dev.esgen.runtime.aggregate.TipPolicy;
import dev.esgen.runtime.codec.SnapshotCodec;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.error.DuplicateAggregateNameException;
import dev.esgen.runtime.index.IndexColumns;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Where all aggregate definitions meet at run time, the store, two aggregate types under one stored name
 * are refused: the processor cannot see a pair it compiled apart. Constructing repositories sends no
 * request, so the client points nowhere.
 */
class AggregateNameClaimTest {

  private static final DynamoDbClient UNUSED_CLIENT = DynamoDbClient.builder()
      .endpointOverride(URI.create("http://127.0.0.1:9"))
      .region(Region.US_EAST_1)
      .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
      .httpClient(UrlConnectionHttpClient.create())
      .build();

  private static DynamoDbEventStore newStore() {
    return DynamoDbEventStore.create(UNUSED_CLIENT, StoreConfig.defaults());
  }

  @Test
  void aSecondAggregateTypeUnderAClaimedNameIsRefused() {
    EventStore store = newStore();
    new CounterRepository(store);

    DuplicateAggregateNameException refused =
        assertThrows(DuplicateAggregateNameException.class, () -> gauges(store, CounterRepository.NAME));

    assertEquals(CounterRepository.NAME, refused.aggregateName());
    assertEquals(Counter.class.getName(), refused.registeredType());
    assertEquals(Gauge.class.getName(), refused.rejectedType());
    assertEquals("aggregate name 'counter' is used by dev.esgen.runtime.counter.Counter and by"
        + " dev.esgen.runtime.counter.AggregateNameClaimTest$Gauge: every aggregate type needs a name of its own,"
        + " because the name prefixes all of its keys; give one of them another @Aggregate(name = ...) before any of"
        + " its data is written", refused.getMessage());
  }

  @Test
  void theSameTypeMayHaveManyRepositoriesAndOtherStoresAreNotConcerned() {
    EventStore store = newStore();
    new CounterRepository(store);
    assertDoesNotThrow(() -> new CounterRepository(store, SnapshotPolicy.every(5)));
    assertDoesNotThrow(() -> new CounterRepository(store, TipPolicy.defaults()));
    assertDoesNotThrow(() -> gauges(store, "gauge"));
    assertDoesNotThrow(() -> gauges(newStore(), CounterRepository.NAME));
  }

  /** Another aggregate type over the counter's events. */
  record Gauge(CounterId id) {}

  private static EventSourcedRepository<Gauge, CounterId, CounterEvent> gauges(EventStore store, String name) {
    ObjectMapper mapper = store.objectMapper();
    AggregateDefinition<Gauge, CounterId, CounterEvent> definition =
        AggregateDefinition.<Gauge, CounterId, CounterEvent>builder(name, Gauge.class)
            .keys(new GaugeKeys())
            .eventCodec(new CounterCodecs.Events(mapper))
            .snapshotCodec(new GaugeSnapshots(mapper))
            .replay(new GaugeReplay())
            .indexColumns(IndexColumns.none())
            .layout(LayoutKind.JOURNAL)
            .build();
    return new EventSourcedRepository<>(store, definition) {};
  }

  private static final class GaugeKeys implements AggregateKeys<Gauge, CounterId> {
    @Override
    public CounterId idOf(Gauge state) {
      return state.id();
    }

    @Override
    public String idString(CounterId id) {
      return id.value();
    }

    @Override
    public CounterId parseId(String idString) {
      return new CounterId(idString);
    }
  }

  private static final class GaugeSnapshots implements SnapshotCodec<Gauge> {
    private final ObjectMapper mapper;

    GaugeSnapshots(ObjectMapper mapper) {
      this.mapper = mapper;
    }

    @Override
    public byte[] encode(Gauge state) throws IOException {
      return mapper.writeValueAsBytes(state);
    }

    @Override
    public Gauge decode(byte[] body) throws IOException {
      return mapper.readValue(body, Gauge.class);
    }
  }

  private static final class GaugeReplay implements Replay<Gauge, CounterEvent> {
    @Override
    public Gauge create(CounterEvent event) {
      return new Gauge(((CounterCreated) event).id());
    }

    @Override
    public Gauge apply(Gauge state, CounterEvent event) {
      return state;
    }
  }
}
