package dev.esgen.spring.boot.autoconfigure;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.ResolvableType;

/**
 * Fails the start when {@code esgen.read-consistency-by-type} names an aggregate type that no repository
 * bean of the application has: a misspelt name ({@code ordr} for {@code order}) would otherwise leave that
 * type's reads at {@code esgen.read-consistency} without a word. Checked once every singleton is made,
 * with the aggregate names of the repository beans, learnt without making any that are not made yet (a
 * generated repository's static {@code definition} names its type; an async repository shares its
 * aggregate with the synchronous one). When some repository bean's aggregate cannot be learnt so, nothing
 * is checked. Keys a {@link StoreConfigCustomizer} sets are not checked: that is where to name the type of
 * a repository the application makes itself, outside the context.
 */
final class ReadConsistencyByTypeCheck implements SmartInitializingSingleton {

  private static final Log LOG = LogFactory.getLog(ReadConsistencyByTypeCheck.class);

  private final ConfigurableListableBeanFactory beans;
  private final EsgenProperties properties;

  ReadConsistencyByTypeCheck(ConfigurableListableBeanFactory beans, EsgenProperties properties) {
    this.beans = beans;
    this.properties = properties;
  }

  @Override
  public void afterSingletonsInstantiated() {
    Set<String> keys = properties.getReadConsistencyByType().keySet();
    if (keys.isEmpty()) {
      return;
    }
    Optional<Set<String>> names = aggregateNames();
    if (names.isEmpty()) {
      LOG.debug("Not checking esgen.read-consistency-by-type: a repository bean's aggregate type is not known"
          + " before it is made");
      return;
    }
    for (String key : keys) {
      if (!names.get().contains(key)) {
        throw new InvalidPropertiesException("esgen.read-consistency-by-type names '" + key + "', the aggregate"
            + " type of no repository bean of this application ("
            + (names.get().isEmpty() ? "it has none" : "theirs: " + String.join(", ", names.get()))
            + "), so it would change no read", "esgen.read-consistency-by-type." + key);
      }
    }
  }

  /** The aggregate names of every repository bean, or empty when one of them cannot be told. */
  private Optional<Set<String>> aggregateNames() {
    Set<String> names = new TreeSet<>();
    Set<Class<?>> named = new HashSet<>();
    Set<Class<?>> awaited = new HashSet<>();
    ObjectMapper mapper = StoreConfig.defaults().objectMapper();
    for (Class<?> repository : new Class<?>[] {EventSourcedRepository.class, AsyncEventSourcedRepository.class}) {
      for (String bean : beans.getBeanNamesForType(repository, true, false)) {
        Optional<AggregateDefinition<?, ?, ?>> definition = definitionOf(bean, mapper);
        if (definition.isPresent()) {
          names.add(definition.get().name());
          named.add(definition.get().aggregateType());
          continue;
        }
        Class<?> aggregateType = ResolvableType.forClass(beans.getType(bean, false)).as(repository).resolveGeneric(0);
        if (aggregateType == null) {
          return Optional.empty();
        }
        awaited.add(aggregateType);
      }
    }
    return named.containsAll(awaited) ? Optional.of(names) : Optional.empty();
  }

  /** The definition of repository bean {@code bean}: from the bean when it is made, else from its class. */
  private Optional<AggregateDefinition<?, ?, ?>> definitionOf(String bean, ObjectMapper mapper) {
    if (beans.containsSingleton(bean)) {
      Object repository = beans.getBean(bean);
      if (repository instanceof EventSourcedRepository<?, ?, ?> sync) {
        return Optional.of(sync.definition());
      }
      if (repository instanceof AsyncEventSourcedRepository<?, ?, ?> async) {
        return Optional.of(async.definition());
      }
    }
    Class<?> type = beans.getType(bean, false);
    if (type == null) {
      return Optional.empty();
    }
    try {
      // A generated FooRepository's: static AggregateDefinition definition(ObjectMapper).
      Method definition = type.getMethod("definition", ObjectMapper.class);
      if (Modifier.isStatic(definition.getModifiers())
          && definition.invoke(null, mapper) instanceof AggregateDefinition<?, ?, ?> d) {
        return Optional.of(d);
      }
    } catch (ReflectiveOperationException notThere) {
      // Not a generated repository: its aggregate type is found by the repository's type argument.
    }
    return Optional.empty();
  }
}
