package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.micrometer.MicrometerStoreListener;
import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.DynamoDbAsyncEventStore;
import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.metrics.StoreListener;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Auto-configuration of esgen: an {@link EventStore} on the application's {@link DynamoDbClient} bean,
 * configured by the {@code esgen.*} properties ({@link EsgenProperties}); an {@link AsyncEventStore} on its
 * {@link DynamoDbAsyncClient} bean, when it has one; a bean for every generated repository in the
 * application's packages; the tables at start-up when
 * {@code esgen.provision.enabled=true}; and Micrometer meters when the application has a
 * {@link MeterRegistry}. Each bean backs off when the application defines one of its type.
 *
 * <p>It runs after Spring Cloud AWS's DynamoDB auto-configuration, so that a {@link DynamoDbClient} made
 * there counts, and after Spring Boot's metrics auto-configuration, so that its registry does.
 */
@AutoConfiguration(afterName = {
    "io.awspring.cloud.autoconfigure.dynamodb.DynamoDbAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({EventStore.class, DynamoDbClient.class})
@EnableConfigurationProperties(EsgenProperties.class)
public class EsgenAutoConfiguration {

  /**
   * The properties' settings, with every {@link StoreListener} bean as the listener (all of them, in
   * order, when there are several) and every {@link StoreConfigCustomizer} applied.
   */
  @Bean
  @ConditionalOnMissingBean
  public StoreConfig esgenStoreConfig(EsgenProperties properties, ObjectProvider<StoreListener> listeners,
      ObjectProvider<StoreConfigCustomizer> customizers) {
    StoreConfig config;
    try {
      config = properties.toStoreConfig();
    } catch (IllegalArgumentException refused) {
      throw new InvalidPropertiesException(refused);
    }
    config = config.withListener(CompositeStoreListener.of(listeners.orderedStream().toList()));
    for (StoreConfigCustomizer customizer : customizers.orderedStream().toList()) {
      config = customizer.customize(config);
    }
    return config;
  }

  /**
   * The store of the generated repositories, on the application's {@link DynamoDbClient} bean and the
   * {@link StoreConfig} bean.
   */
  @Bean
  @ConditionalOnMissingBean(EventStore.class)
  @ConditionalOnBean(DynamoDbClient.class)
  public DynamoDbEventStore esgenEventStore(DynamoDbClient client, StoreConfig config) {
    return DynamoDbEventStore.create(client, config);
  }

  /**
   * The store of the generated {@code FooAsyncRepository} classes ({@code @Aggregate(async = true)}). Made
   * from the synchronous store when there is one, so that both kinds of repository share its state cache
   * and listener; on the same settings otherwise.
   */
  @Bean
  @ConditionalOnMissingBean(AsyncEventStore.class)
  @ConditionalOnBean(DynamoDbAsyncClient.class)
  public AsyncEventStore esgenAsyncEventStore(
      DynamoDbAsyncClient client, ObjectProvider<EventStore> store, StoreConfig config) {
    return store.getIfUnique() instanceof DynamoDbEventStore synchronous
        ? synchronous.withAsyncClient(client)
        : DynamoDbAsyncEventStore.create(client, config);
  }

  /** Fails the start when {@code esgen.read-consistency-by-type} names no repository's aggregate type. */
  @Bean
  ReadConsistencyByTypeCheck esgenReadConsistencyByTypeCheck(ConfigurableListableBeanFactory beans,
      EsgenProperties properties) {
    return new ReadConsistencyByTypeCheck(beans, properties);
  }

  /** Static, as every post-processor's factory method should be: it must not make this class early. */
  @Bean
  @ConditionalOnBooleanProperty("esgen.provision.enabled")
  static EsgenTableProvisioning esgenTableProvisioning(
      ObjectProvider<DynamoDbClient> client, ObjectProvider<StoreConfig> config) {
    return new EsgenTableProvisioning(client, config);
  }

  /** Registers the generated repositories. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnBooleanProperty(name = "esgen.repositories.enabled", matchIfMissing = true)
  @Import(EsgenRepositoriesRegistrar.class)
  static class RepositoriesConfiguration {}

  /** Records operations in the application's registry. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({MeterRegistry.class, MicrometerStoreListener.class})
  @ConditionalOnBean(MeterRegistry.class)
  @ConditionalOnBooleanProperty(name = "esgen.metrics.enabled", matchIfMissing = true)
  static class MetricsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MicrometerStoreListener esgenMicrometerStoreListener(MeterRegistry registry) {
      return MicrometerStoreListener.builder(registry).build();
    }
  }
}
