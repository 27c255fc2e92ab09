package dev.esgen.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.esgen.runtime.EventStore;
import dev.esgen.testkit.memory.InMemoryEventStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a failed start says, for the failures the starter's analyzer explains, taken from contexts that
 * really failed; Spring Boot finds the analyzer through {@code META-INF/spring.factories}.
 */
class EsgenFailureAnalyzerTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(EsgenAutoConfiguration.class))
      .withUserConfiguration(ShopDomain.class);

  /** No bean of any kind: what a context without a DynamoDbClient bean holds of it. */
  private final DefaultListableBeanFactory withoutClient = new DefaultListableBeanFactory();

  @Test
  void springBootFindsTheAnalyzerBeforeItsOwn() {
    // Skipping analyzers for classes this class path lacks (Spring MVC's), as Spring Boot does.
    List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
        .load(FailureAnalyzer.class, ArgumentResolver.of(BeanFactory.class, withoutClient),
            FailureHandler.handleMessage((message, failure) -> { }));
    assertThat(analyzers).first().isInstanceOf(EsgenFailureAnalyzer.class);
  }

  @Test
  void aRepositoryWithoutADynamoDbClientBeanIsToldToDefineOne() {
    runner.run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = new EsgenFailureAnalyzer(withoutClient).analyze(context.getStartupFailure());
      assertThat(analysis).isNotNull();
      assertThat(analysis.getDescription()).isEqualTo("A generated repository needs an EventStore bean. esgen's"
          + " auto-configuration makes one from the application's DynamoDbClient bean, and there is none.");
      assertThat(analysis.getAction()).startsWith("Define a DynamoDbClient bean (docs/spring-boot.md shows one)");
    });
  }

  @Test
  void aMissingStoreWithAClientBesideItIsLeftToSpringBoot() {
    DefaultListableBeanFactory withClient = new DefaultListableBeanFactory();
    withClient.registerSingleton("dynamoDbClient", DynamoDbClient.builder().region(Region.US_EAST_1).build());
    runner.run(context ->
        assertThat(new EsgenFailureAnalyzer(withClient).analyze(context.getStartupFailure())).isNull());
  }

  @Test
  void anInvalidSettingNamesTheProperty() {
    runner.withPropertyValues("esgen.repositories.enabled=false", "esgen.retry.max-attempts=0").run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = new EsgenFailureAnalyzer(withoutClient).analyze(context.getStartupFailure());
      assertThat(analysis.getDescription())
          .isEqualTo("The esgen.* properties make no valid store configuration: maxAttempts must be at least 1, was 0");
      assertThat(analysis.getAction()).startsWith("Correct esgen.retry.max-attempts (docs/spring-boot.md");
    });
  }

  @Test
  void aStateCacheSettingIsCheckedWhileTheCacheIsOff() {
    runner.withPropertyValues("esgen.repositories.enabled=false", "esgen.state-cache.max-streams=-1").run(context -> {
      assertThat(context).hasFailed();
      assertThat(new EsgenFailureAnalyzer(withoutClient).analyze(context.getStartupFailure()).getAction())
          .startsWith("Correct esgen.state-cache.max-streams");
    });
  }

  @Test
  void aClashNamesTheSettingCheckedNotThoseItClashesWith() {
    runner.withPropertyValues("esgen.repositories.enabled=false", "esgen.tables.tip=journal").run(context -> {
      FailureAnalysis analysis = new EsgenFailureAnalyzer(withoutClient).analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).contains("the tip table must differ from the journal and snapshot tables");
      assertThat(analysis.getAction()).startsWith("Correct esgen.tables.tip (docs/spring-boot.md");
    });
  }

  @Test
  void aValueThatDoesNotBindIsLeftToSpringBootWhichNamesThePropertyAndTheValue() {
    runner.withPropertyValues("esgen.repositories.enabled=false", "esgen.read-consistency=eventualy").run(context -> {
      assertThat(context).hasFailed();
      assertThat(causes(context.getStartupFailure())).hasAtLeastOneElementOfType(BindException.class);
      assertThat(new EsgenFailureAnalyzer(withoutClient).analyze(context.getStartupFailure())).isNull();
    });
    runner.withPropertyValues("esgen.repositories.enabled=false", "esgen.retry.max-attempts=abc").run(context -> {
      assertThat(context).hasFailed();
      assertThat(new EsgenFailureAnalyzer(withoutClient).analyze(context.getStartupFailure())).isNull();
    });
  }

  @Test
  void aCustomizerThatThrowsIsNotBlamedOnAProperty() {
    runner.withPropertyValues("esgen.repositories.enabled=false")
        .withBean(StoreConfigCustomizer.class, () -> config -> config.withTipTable("x"))
        .run(context -> {
          assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("tipTable 'x'");
          assertThat(new EsgenFailureAnalyzer(withoutClient).analyze(context.getStartupFailure())).isNull();
        });
  }

  @Test
  void twoStoresWithoutAClientAreLeftToSpringBootWhichNamesThem() {
    DefaultListableBeanFactory twoStores = new DefaultListableBeanFactory();
    twoStores.registerSingleton("primaryStore", InMemoryEventStore.create());
    twoStores.registerSingleton("auditStore", InMemoryEventStore.create());
    runner.withBean("primaryStore", EventStore.class, InMemoryEventStore::create)
        .withBean("auditStore", EventStore.class, InMemoryEventStore::create)
        .run(context -> {
          assertThat(context).hasFailed().getFailure().rootCause()
              .isInstanceOf(NoUniqueBeanDefinitionException.class).hasMessageContaining("primaryStore,auditStore");
          assertThat(new EsgenFailureAnalyzer(twoStores).analyze(context.getStartupFailure())).isNull();
        });
  }

  @Test
  void aReadConsistencyForATypeNoRepositoryHasFailsTheStartNamingTheKey() {
    // The application reads eventually but wants its orders read strongly, and misspells "order".
    runner.withBean(DynamoDbClient.class, () -> DynamoDbClient.builder().region(Region.US_EAST_1).build())
        .withPropertyValues("esgen.read-consistency=eventual", "esgen.read-consistency-by-type.ordr=strong")
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = new EsgenFailureAnalyzer(withoutClient).analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).isEqualTo("The esgen.* properties make no valid store configuration:"
              + " esgen.read-consistency-by-type names 'ordr', the aggregate type of no repository bean of this"
              + " application (theirs: cart, order), so it would change no read");
          assertThat(analysis.getAction()).startsWith("Correct esgen.read-consistency-by-type.ordr (docs/");
        });
    runner.withPropertyValues("esgen.repositories.enabled=false", "esgen.read-consistency-by-type.order=strong")
        .run(context -> assertThat(context).hasFailed().getFailure()
            .hasMessageContaining("'order', the aggregate type of no repository bean of this application"
                + " (it has none)"));
  }

  private static List<Throwable> causes(Throwable failure) {
    List<Throwable> causes = new ArrayList<>();
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      causes.add(cause);
    }
    return causes;
  }
}
