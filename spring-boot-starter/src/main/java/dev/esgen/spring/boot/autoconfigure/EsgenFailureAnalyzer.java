package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.EventStore;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Explains the two ways an application using the starter most often fails to start, before Spring Boot's
 * general analysis would: a repository needs a store and there is no DynamoDB client to make one from
 * (Boot would advise defining an {@code EventStore}), and {@code esgen.*} properties that make no valid
 * {@code StoreConfig} (Boot would print the bare cause, naming a record component rather than the property).
 * What Spring Boot's own analysis names better is left to it: a value that does not bind, two stores
 * where one is wanted, a {@link StoreConfigCustomizer} or listener that throws.
 */
final class EsgenFailureAnalyzer implements FailureAnalyzer, Ordered {

  /** StoreConfig's, RetryPolicy's and StateCachePolicy's components, as their messages name them. */
  private static final Map<String, String> PROPERTIES = properties();

  private final BeanFactory beanFactory;

  EsgenFailureAnalyzer(BeanFactory beanFactory) {
    this.beanFactory = beanFactory;
  }

  @Override
  public FailureAnalysis analyze(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException) {
        // A value that does not convert (a misspelt enum, "abc" for a number): Spring Boot's own analysis
        // names the property, the value, where it was set and what it accepts.
        return null;
      }
      if (cause instanceof InvalidPropertiesException invalid) {
        return invalidSettings(invalid, failure);
      }
      if (cause instanceof NoUniqueBeanDefinitionException) {
        // Two stores where one is wanted: Spring Boot's own report names them.
        return null;
      }
      if (cause instanceof NoSuchBeanDefinitionException missing) {
        return missingStore(missing, failure);
      }
    }
    return null;
  }

  private FailureAnalysis missingStore(NoSuchBeanDefinitionException missing, Throwable failure) {
    Class<?> type = missing.getBeanType();
    boolean async = type == AsyncEventStore.class;
    if (type != EventStore.class && !async) {
      return null;
    }
    Class<?> client = async ? DynamoDbAsyncClient.class : DynamoDbClient.class;
    if (!(beanFactory instanceof ListableBeanFactory beans) || beans.getBeanNamesForType(client).length > 0
        || beans.getBeanNamesForType(type).length > 0) {
      return null;
    }
    return new FailureAnalysis(
        "A generated " + (async ? "FooAsyncRepository" : "repository") + " needs an " + type.getSimpleName()
            + " bean. esgen's auto-configuration makes one from the application's " + client.getSimpleName()
            + " bean, and there is none.",
        "Define a " + client.getSimpleName() + " bean (docs/spring-boot.md shows one) or an "
            + type.getSimpleName() + " bean of your own"
            + (async ? "." : ", or set esgen.repositories.enabled=false if the application uses no repository."),
        failure);
  }

  private static FailureAnalysis invalidSettings(InvalidPropertiesException invalid, Throwable failure) {
    String message = String.valueOf(invalid.getMessage());
    String named = invalid.property() != null ? invalid.property() : namedIn(message);
    return new FailureAnalysis("The esgen.* properties make no valid store configuration: " + message,
        (named == null ? "Correct the esgen.* properties" : "Correct " + named)
            + " (docs/spring-boot.md lists the properties and their defaults).",
        failure);
  }

  /**
   * The property whose setting {@code message} names first: a message about a clash names the setting it
   * checked before those it clashes with ("the tip table must differ from the journal and snapshot tables").
   */
  private static String namedIn(String message) {
    String named = null;
    int first = Integer.MAX_VALUE;
    for (Map.Entry<String, String> component : PROPERTIES.entrySet()) {
      int at = message.indexOf(component.getKey());
      if (at >= 0 && at < first) {
        first = at;
        named = component.getValue();
      }
    }
    return named;
  }

  private static Map<String, String> properties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("journalTable", "esgen.tables.journal");
    properties.put("snapshotTable", "esgen.tables.snapshot");
    properties.put("tipTable", "esgen.tables.tip");
    properties.put("positionsTable", "esgen.tables.positions");
    properties.put("journal and snapshot tables", "esgen.tables.journal and esgen.tables.snapshot");
    properties.put("the tip table", "esgen.tables.tip");
    properties.put("the positions table", "esgen.tables.positions");
    properties.put("maxAttempts", "esgen.retry.max-attempts");
    properties.put("baseDelay", "esgen.retry.base-delay");
    properties.put("maxDelay", "esgen.retry.max-delay");
    properties.put("delays", "esgen.retry.base-delay and esgen.retry.max-delay");
    properties.put("deadline", "esgen.retry.deadline");
    properties.put("readConsistencyByType", "esgen.read-consistency-by-type");
    properties.put("maxStreams", "esgen.state-cache.max-streams");
    properties.put("maxAge", "esgen.state-cache.max-age");
    return properties;
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }
}
