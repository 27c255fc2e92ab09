package dev.esgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.esgen.micrometer.MicrometerStoreListener;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.config.ReadConsistency;
import dev.esgen.runtime.config.RetryPolicy;
import dev.esgen.runtime.config.StateCachePolicy;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.spring.boot.app.Cart;
import dev.esgen.spring.boot.app.CartOpened;
import dev.esgen.spring.boot.app.CartRepository;
import dev.esgen.spring.boot.app.Order;
import dev.esgen.spring.boot.app.OrderId;
import dev.esgen.spring.boot.app.OrderPlaced;
import dev.esgen.spring.boot.app.OrderRepository;
import dev.esgen.test.DynamoDbLocalExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** The auto-configuration in real application contexts, against DynamoDB Local. */
class EsgenAutoConfigurationTest {

  @RegisterExtension
  static final DynamoDbLocalExtension dynamo = new DynamoDbLocalExtension();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
      .withUserConfiguration(ShopDomain.class)
      .withBean(DynamoDbClient.class, dynamo::client);

  /** Table names no other test uses, so that each test provisions its own tables. */
  private static String[] tables(String prefix) {
    return new String[] {
        "esgen.tables.journal=" + prefix + "-journal",
        "esgen.tables.snapshot=" + prefix + "-snapshot",
        "esgen.tables.tip=" + prefix + "-streams"};
  }

  private static String unique(String name) {
    return name + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void everyGeneratedRepositoryIsABeanOnTheProvisionedTablesTheSettingsName() {
    String prefix = unique("provisioned");
    runner.withPropertyValues(tables(prefix)).withPropertyValues("esgen.provision.enabled=true").run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(OrderRepository.class).hasSingleBean(CartRepository.class);
      assertThat(context).getBean("orderRepository").isInstanceOf(OrderRepository.class);

      OrderRepository orders = context.getBean(OrderRepository.class);
      OrderId id = OrderId.random();
      orders.create(new OrderPlaced(id, "ann", 10_00));
      assertThat(orders.load(id)).isEqualTo(new Order(id, "ann", 10_00, false));
      assertThat(orders.loadByCustomer("ann").customer()).isEqualTo("ann");
      CartRepository carts = context.getBean(CartRepository.class);
      carts.create(new CartOpened("cart-" + id.value()));
      assertThat(carts.load("cart-" + id.value())).isEqualTo(new Cart("cart-" + id.value(), List.of()));

      assertThat(dynamo.client().listTables().tableNames())
          .contains(prefix + "-journal", prefix + "-snapshot", prefix + "-streams");
      assertThat(streamItems(prefix + "-journal")).isEqualTo(1);
      assertThat(streamItems(prefix + "-streams")).isEqualTo(1);
      TableDescription snapshot = dynamo.client().describeTable(b -> b.tableName(prefix + "-snapshot")).table();
      assertThat(snapshot.globalSecondaryIndexes()).extracting(index -> index.indexName())
          .as("the slot Order's @Indexed customer needs").containsExactly("esgen-index-0");
    });
  }

  @Test
  void propertiesBindToTheStoreConfig() {
    runner.withPropertyValues("esgen.tables.journal=j-1", "esgen.tables.snapshot=s-1", "esgen.tables.tip=t-1",
        "esgen.retry.max-attempts=3", "esgen.retry.base-delay=5ms", "esgen.retry.max-delay=1s",
        "esgen.retry.deadline=2m", "esgen.aid-index=true").run(context -> {
          StoreConfig config = context.getBean(StoreConfig.class);
          assertThat(config.journalTable()).isEqualTo("j-1");
          assertThat(config.snapshotTable()).isEqualTo("s-1");
          assertThat(config.tipTable()).isEqualTo("t-1");
          assertThat(config.retryPolicy())
              .isEqualTo(new RetryPolicy(3, Duration.ofMillis(5), Duration.ofSeconds(1), Duration.ofMinutes(2)));
          assertThat(config.aidIndex()).isTrue();
          assertThat(context.getBean(DynamoDbEventStore.class).config()).isSameAs(config);
        });
  }

  @Test
  void aTableMayTakeTheDefaultNameOfAnotherTableThatIsRenamedToo() {
    runner.withPropertyValues("esgen.tables.journal=streams", "esgen.tables.snapshot=positions",
        "esgen.tables.tip=carts", "esgen.tables.positions=feed").run(context -> {
          assertThat(context).hasNotFailed();
          StoreConfig config = context.getBean(StoreConfig.class);
          assertThat(config.journalTable()).isEqualTo("streams");
          assertThat(config.snapshotTable()).isEqualTo("positions");
          assertThat(config.tipTable()).isEqualTo("carts");
          assertThat(config.positionsTable()).isEqualTo("feed");
        });
  }

  @Test
  void twoTablesWithOneNameFailTheStartWithStoreConfigsMessage() {
    runner.withPropertyValues("esgen.tables.journal=events", "esgen.tables.tip=events").run(context ->
        assertThat(context).hasFailed().getFailure().rootCause()
            .hasMessageContaining("the tip table must differ from the journal and snapshot tables, is 'events'"));
  }

  @Test
  void aTableNameDynamoDbRefusesFailsTheStartWithStoreConfigsMessage() {
    runner.withPropertyValues("esgen.tables.snapshot=").run(context ->
        assertThat(context).hasFailed().getFailure().rootCause()
            .hasMessageContaining("snapshotTable '' is no DynamoDB table name"));
  }

  @Test
  void readConsistencyStateCacheAndPositionsTableBindToTheStoreConfig() {
    runner.withPropertyValues("esgen.read-consistency=eventual", "esgen.read-consistency-by-type.cart=strong",
        "esgen.state-cache.enabled=true", "esgen.state-cache.max-streams=500", "esgen.state-cache.max-age=30s",
        "esgen.tables.positions=p-1").run(context -> {
          StoreConfig config = context.getBean(StoreConfig.class);
          assertThat(config.readConsistency()).isEqualTo(ReadConsistency.EVENTUAL);
          assertThat(config.readConsistencyOf("order")).isEqualTo(ReadConsistency.EVENTUAL);
          assertThat(config.readConsistencyOf("cart")).isEqualTo(ReadConsistency.STRONG);
          assertThat(config.stateCache()).isEqualTo(StateCachePolicy.of(500, Duration.ofSeconds(30)));
          assertThat(config.positionsTable()).isEqualTo("p-1");
        });
  }

  @Test
  void withoutPropertiesTheSettingsAreStoreConfigDefaultsAndNothingIsProvisioned() {
    runner.run(context -> {
      StoreConfig config = context.getBean(StoreConfig.class);
      StoreConfig defaults = StoreConfig.defaults();
      assertThat(config.journalTable()).isEqualTo(defaults.journalTable());
      assertThat(config.snapshotTable()).isEqualTo(defaults.snapshotTable());
      assertThat(config.tipTable()).isEqualTo(defaults.tipTable());
      assertThat(config.retryPolicy()).isEqualTo(RetryPolicy.defaults());
      assertThat(config.aidIndex()).isEqualTo(defaults.aidIndex());
      assertThat(config.positionsTable()).isEqualTo(defaults.positionsTable());
      assertThat(config.readConsistency()).isEqualTo(ReadConsistency.STRONG);
      assertThat(config.stateCache().enabled()).isFalse();
      assertThat(config.listener()).isSameAs(StoreListener.NONE);
      assertThat(context).doesNotHaveBean(EsgenTableProvisioning.class);
    });
  }

  @Test
  void anInvalidRetryPolicyFailsTheStartWithRetryPolicysMessage() {
    runner.withPropertyValues("esgen.retry.max-attempts=0").run(context ->
        assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("maxAttempts must be at least 1"));
  }

  @Test
  void theApplicationsOwnEventStoreWinsAndIsProvisioned() {
    String prefix = unique("own");
    StoreConfig own = StoreConfig.defaults()
        .withJournalTable(prefix + "-journal").withSnapshotTable(prefix + "-snapshot").withTipTable(prefix + "-streams");
    EventStore store = DynamoDbEventStore.create(dynamo.client(), own);
    runner.withPropertyValues("esgen.provision.enabled=true")
        .withBean("myStore", EventStore.class, () -> store)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(EventStore.class);
          assertThat(context.getBean(EventStore.class)).isSameAs(store);
          OrderRepository orders = context.getBean(OrderRepository.class);
          orders.create(new OrderPlaced(OrderId.random(), "bob", 1_00));
          assertThat(streamItems(prefix + "-journal")).as("the application's store's tables").isEqualTo(1);
        });
  }

  @Test
  void theApplicationsOwnRepositoryBeanReplacesTheRegisteredOne() {
    runner.withUserConfiguration(OwnOrders.class).run(context -> {
      assertThat(context).hasSingleBean(OrderRepository.class).hasBean("myOrders").doesNotHaveBean("orderRepository");
      assertThat(context.getBean(OrderRepository.class)).isSameAs(context.getBean(OwnOrders.class).made);
      assertThat(context).hasSingleBean(CartRepository.class);
    });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnOrders {
    OrderRepository made;

    @Bean
    OrderRepository myOrders(EventStore store) {
      made = new OrderRepository(store);
      return made;
    }
  }

  @Test
  void repositoriesCanBeLeftUnregistered() {
    runner.withPropertyValues("esgen.repositories.enabled=false").run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(OrderRepository.class).doesNotHaveBean(CartRepository.class);
      assertThat(context).hasSingleBean(EventStore.class);
    });
  }

  @Test
  void withoutADynamoDbClientThereIsNoStoreAndTheRepositoriesSayWhatIsMissing() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
        .withUserConfiguration(ShopDomain.class)
        .run(context -> assertThat(context).hasFailed().getFailure()
            .hasMessageContaining(EventStore.class.getName()));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
        .withPropertyValues("esgen.repositories.enabled=false")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(EventStore.class));
  }

  @Test
  void operationsAreRecordedInTheMeterRegistryAndToEveryListenerOfTheApplication() {
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    Logger log = (Logger) LoggerFactory.getLogger(CompositeStoreListener.class);
    log.setLevel(Level.WARN);
    logged.start();
    log.addAppender(logged);
    List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
    String prefix = unique("metrics");
    runner.withPropertyValues(tables(prefix)).withPropertyValues("esgen.provision.enabled=true")
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean("auditListener", StoreListener.class, () -> heard::add)
        .withBean("brokenListener", StoreListener.class, () -> metrics -> {
          throw new IllegalStateException("a listener that throws must not silence the others");
        })
        .run(context -> {
          assertThat(context).hasSingleBean(MicrometerStoreListener.class);
          OrderId id = OrderId.random();
          context.getBean(OrderRepository.class).create(new OrderPlaced(id, "cy", 2_00));
          context.getBean(OrderRepository.class).load(id);

          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.get(MicrometerStoreListener.OPERATION)
              .tags("aggregate", "order", "operation", "create", "outcome", "success").timer().count()).isEqualTo(1);
          assertThat(registry.get(MicrometerStoreListener.READ_CAPACITY)
              .tags("aggregate", "order", "operation", "load").summary().totalAmount()).isEqualTo(1.0);
          assertThat(heard).extracting(OperationMetrics::operation).containsExactly("create", "load");
          // Told twice, reported twice, naming the listener: as the store reports its one listener's exception.
          assertThat(logged.list).hasSize(2).allSatisfy(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getFormattedMessage()).startsWith("the StoreListener " + getClass().getName())
                .endsWith(" threw; esgen goes on without it");
            assertThat(event.getThrowableProxy().getMessage())
                .isEqualTo("a listener that throws must not silence the others");
          });
        });
    log.detachAppender(logged);
    log.setLevel(null);
  }

  @Test
  void noMeterRegistryNoMicrometerListener() {
    runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(MicrometerStoreListener.class));
  }

  @Test
  void withoutMicrometerOnTheClasspathTheStoreStillStarts() {
    runner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(EventStore.class).hasSingleBean(OrderRepository.class);
      assertThat(context).doesNotHaveBean(MicrometerStoreListener.class);
    });
  }

  @Test
  void metricsCanBeSwitchedOff() {
    runner.withPropertyValues("esgen.metrics.enabled=false")
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(context -> {
          assertThat(context).doesNotHaveBean(MicrometerStoreListener.class);
          assertThat(context.getBean(StoreConfig.class).listener()).isSameAs(StoreListener.NONE);
        });
  }

  @Test
  void customizersChangeWhatPropertiesCannotSay() {
    Clock clock = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);
    runner.withBean(StoreConfigCustomizer.class, () -> config -> config.withClock(clock))
        .withPropertyValues("esgen.tables.journal=customized-journal")
        .run(context -> {
          StoreConfig config = context.getBean(StoreConfig.class);
          assertThat(config.clock()).isSameAs(clock);
          assertThat(config.journalTable()).isEqualTo("customized-journal");
        });
  }

  @Test
  void theApplicationsOwnStoreConfigIsUsedAsItIs() {
    StoreConfig own = StoreConfig.defaults().withJournalTable("mine");
    runner.withBean(StoreConfig.class, () -> own).withPropertyValues("esgen.tables.journal=ignored").run(context -> {
      assertThat(context).hasSingleBean(StoreConfig.class);
      assertThat(context.getBean(DynamoDbEventStore.class).config()).isSameAs(own);
    });
  }

  @Test
  void twoStoresOnTwoAccountsEachProvisionTheirTablesOnTheirOwnClient() {
    String orders = unique("orders-account");
    String carts = unique("carts-account");
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
        .withUserConfiguration(ShopDomain.class, TwoAccounts.class)
        .withPropertyValues("esgen.provision.enabled=true", "test.orders-tables=" + orders, "test.carts-tables=" + carts)
        .run(context -> {
          assertThat(context).hasNotFailed();
          DynamoDbClient second = context.getBean("cartsClient", DynamoDbClient.class);
          assertThat(dynamo.client().listTables().tableNames())
              .contains(orders + "-journal", orders + "-snapshot", orders + "-streams")
              .noneMatch(table -> table.startsWith(carts));
          assertThat(second.listTables().tableNames())
              .contains(carts + "-journal", carts + "-snapshot", carts + "-streams")
              .noneMatch(table -> table.startsWith(orders));

          OrderId id = OrderId.random();
          context.getBean(OrderRepository.class).create(new OrderPlaced(id, "ann", 10_00));
          context.getBean(CartRepository.class).create(new CartOpened("cart-" + id.value()));
          assertThat(streamItems(orders + "-journal")).isEqualTo(1);
          assertThat(second.scan(b -> b.tableName(carts + "-streams")).count()).isEqualTo(1);
        });
  }

  /** Two accounts as spring-boot.md shows them: a client, a store and repositories on each. */
  @Configuration(proxyBeanMethods = false)
  static class TwoAccounts {

    /** The test's shared client: not the context's to close. */
    @Bean(destroyMethod = "")
    DynamoDbClient ordersClient() {
      return dynamo.client();
    }

    /** DynamoDB Local keeps a database per access key: another key is another account. */
    @Bean
    DynamoDbClient cartsClient() {
      return DynamoDbClient.builder()
          .endpointOverride(dynamo.server().endpoint())
          .region(Region.US_EAST_1)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("second", "second")))
          .httpClientBuilder(UrlConnectionHttpClient.builder())
          .build();
    }

    @Bean
    EventStore ordersStore(@Qualifier("ordersClient") DynamoDbClient client, @Value("${test.orders-tables}") String tables) {
      return DynamoDbEventStore.create(client, tablesNamed(tables));
    }

    @Bean
    EventStore cartsStore(@Qualifier("cartsClient") DynamoDbClient client, @Value("${test.carts-tables}") String tables) {
      return DynamoDbEventStore.create(client, tablesNamed(tables));
    }

    @Bean
    OrderRepository orderRepository(@Qualifier("ordersStore") EventStore store) {
      return new OrderRepository(store);
    }

    @Bean
    CartRepository cartRepository(@Qualifier("cartsStore") EventStore store) {
      return new CartRepository(store);
    }

    private static StoreConfig tablesNamed(String prefix) {
      return StoreConfig.defaults().withJournalTable(prefix + "-journal").withSnapshotTable(prefix + "-snapshot")
          .withTipTable(prefix + "-streams");
    }
  }

  private static int streamItems(String table) {
    return dynamo.client().scan(b -> b.tableName(table)).count();
  }
}
