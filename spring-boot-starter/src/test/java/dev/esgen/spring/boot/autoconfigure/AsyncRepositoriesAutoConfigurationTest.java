package dev.esgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.metrics.OperationMetrics;
import dev.esgen.runtime.metrics.StoreListener;
import dev.esgen.runtime.repository.ReadOptions;
import dev.esgen.spring.boot.app.ShopApplication;
import dev.esgen.spring.boot.ledger.Ledger;
import dev.esgen.spring.boot.ledger.LedgerAsyncRepository;
import dev.esgen.spring.boot.ledger.LedgerOpened;
import dev.esgen.spring.boot.ledger.LedgerRepository;
import dev.esgen.test.DynamoDbLocal;
import dev.esgen.test.DynamoDbLocalExtension;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.UnsatisfiedDependencyException;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Generated async repositories as beans, on the async store the starter makes, against DynamoDB Local. */
class AsyncRepositoriesAutoConfigurationTest {

  @RegisterExtension
  static final DynamoDbLocalExtension dynamo = new DynamoDbLocalExtension();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
      .withUserConfiguration(LedgerDomain.class)
      .withBean(DynamoDbClient.class, dynamo::client);

  /** A new client for each context, which closes it (Spring closes every AutoCloseable bean it holds). */
  private static DynamoDbAsyncClient asyncClient() {
    // the credentials of DynamoDbLocal.newClient(), the synchronous client's: DynamoDB Local keeps tables per
    // access key
    return DynamoDbAsyncClient.builder()
        .endpointOverride(DynamoDbLocal.shared().endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .httpClientBuilder(NettyNioAsyncHttpClient.builder())
        .build();
  }

  /** The ledger's package, as {@code @SpringBootApplication} would register it. */
  @Configuration(proxyBeanMethods = false)
  @AutoConfigurationPackage(basePackageClasses = Ledger.class)
  static class LedgerDomain {}

  private static String[] provisionedTables() {
    String prefix = "ledger-" + UUID.randomUUID().toString().substring(0, 8);
    return new String[] {
        "esgen.tables.journal=" + prefix + "-journal",
        "esgen.tables.snapshot=" + prefix + "-snapshot",
        "esgen.tables.tip=" + prefix + "-streams",
        "esgen.provision.enabled=true"};
  }

  @Test
  void asyncRepositoriesShareTheSynchronousStoresCacheAndListeners() {
    List<OperationMetrics> heard = new CopyOnWriteArrayList<>();
    runner.withBean(DynamoDbAsyncClient.class, AsyncRepositoriesAutoConfigurationTest::asyncClient)
        .withBean(StoreListener.class, () -> heard::add)
        .withPropertyValues(provisionedTables())
        .withPropertyValues("esgen.state-cache.enabled=true")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(AsyncEventStore.class)
              .hasSingleBean(LedgerRepository.class).hasSingleBean(LedgerAsyncRepository.class);
          assertThat(context).getBean("ledgerAsyncRepository").isInstanceOf(LedgerAsyncRepository.class);
          LedgerRepository ledgers = context.getBean(LedgerRepository.class);
          LedgerAsyncRepository asyncLedgers = context.getBean(LedgerAsyncRepository.class);

          String id = "ledger-" + UUID.randomUUID();
          ledgers.create(new LedgerOpened(id));
          heard.clear();
          // the synchronous create left the stream in the one cache both stores share: no request
          Ledger cached = asyncLedgers.load(id, ReadOptions.cachedWithin(Duration.ofMinutes(1)))
              .get(10, TimeUnit.SECONDS);
          assertThat(cached).isEqualTo(new Ledger(id, 0));
          assertThat(heard).singleElement().satisfies(metrics -> {
            assertThat(metrics.operation()).isEqualTo("load");
            assertThat(metrics.requests()).isZero();
          });

          asyncLedgers.transact(id, ledger -> ledger.post(250)).get(10, TimeUnit.SECONDS);
          assertThat(ledgers.load(id)).isEqualTo(new Ledger(id, 250));
        });
  }

  @Test
  void withoutASynchronousStoreTheAsyncStoreIsMadeOnTheStoreConfig() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
        .withBean(DynamoDbAsyncClient.class, AsyncRepositoriesAutoConfigurationTest::asyncClient)
        .withPropertyValues("esgen.tables.journal=only-async-journal", "esgen.retry.max-attempts=4")
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(EventStore.class);
          AsyncEventStore store = context.getBean(AsyncEventStore.class);
          assertThat(store).isInstanceOf(DynamoDbAsyncEventStore.class);
          StoreConfig config = ((DynamoDbAsyncEventStore) store).config();
          assertThat(config.journalTable()).isEqualTo("only-async-journal");
          assertThat(config.retryPolicy().maxAttempts()).isEqualTo(4);
        });
  }

  @Test
  void anAsyncRepositoryNobodyInjectsNeedsNoAsyncClientAndOneThatIsSaysWhatIsMissing() {
    runner.withPropertyValues(provisionedTables()).run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(AsyncEventStore.class).hasSingleBean(LedgerRepository.class);
      assertThat(assertThrows(UnsatisfiedDependencyException.class,
          () -> context.getBean(LedgerAsyncRepository.class)))
          .hasMessageContaining(AsyncEventStore.class.getName());
    });
  }

  @Test
  void aReadConsistencyByTypeIsCheckedWithoutMakingTheAsyncRepository() {
    runner.withPropertyValues("esgen.read-consistency-by-type.ledger=eventual").run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(AsyncEventStore.class);
      assertThat(context.getBeanFactory().containsSingleton("ledgerAsyncRepository")).isFalse();
    });
    runner.withPropertyValues("esgen.read-consistency-by-type.ledgr=eventual").run(context ->
        assertThat(context).hasFailed().getFailure()
            .hasMessageContaining("names 'ledgr', the aggregate type of no repository bean of this application"
                + " (theirs: ledger)"));
  }

  @Test
  void aRepositoryWhoseAggregateTypeCannotBeToldWithoutMakingItLeavesTheKeysUnchecked() {
    // No synchronous repository, an async one of the application's own not made yet: its aggregate type is
    // not known, so any key might be its.
    runner.withPropertyValues("esgen.repositories.enabled=false", "esgen.read-consistency-by-type.ledgr=eventual")
        .withBean(LedgerAsyncRepository.class, () -> {
          throw new AssertionError("the check must not make the repository");
        }, definition -> definition.setLazyInit(true))
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void theApplicationsOwnAsyncStoreWins() {
    try (DynamoDbAsyncClient ownClient = asyncClient()) {
      AsyncEventStore own = DynamoDbAsyncEventStore.create(ownClient, StoreConfig.defaults());
      runner.withBean(DynamoDbAsyncClient.class, AsyncRepositoriesAutoConfigurationTest::asyncClient)
          .withBean("ownAsyncStore", AsyncEventStore.class, () -> own)
          .run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(AsyncEventStore.class);
            assertThat(context.getBean(AsyncEventStore.class)).isSameAs(own);
          });
    }
  }
}
