package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.runtime.DynamoDbEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.aggregate.AggregateDefinition;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.runtime.internal.StoreAccess;
import dev.esgen.runtime.internal.StoreInternals;
import dev.esgen.runtime.provision.TableProvisioner;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.util.ReflectionUtils;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Creates the tables of each {@link EventStore} bean, and the index slots of every repository bean's
 * aggregate, as soon as the store is created: every repository needs the store, so no repository can
 * be used, not even by another bean's initialisation, before its tables exist. Idempotent, like
 * {@link TableProvisioner}: existing tables are checked, missing index slots added, nothing removed.
 *
 * <p>The repositories' definitions are read without creating the repository beans: for each repository
 * bean type, an instance made with its public {@code (EventStore)} constructor (cheap, and free of side
 * effects) gives its definition.
 */
final class EsgenTableProvisioning implements BeanPostProcessor, BeanFactoryAware {

  private static final Log LOG = LogFactory.getLog(EsgenTableProvisioning.class);

  private final ObjectProvider<DynamoDbClient> client;
  private final ObjectProvider<StoreConfig> config;
  private ListableBeanFactory beanFactory;

  EsgenTableProvisioning(ObjectProvider<DynamoDbClient> client, ObjectProvider<StoreConfig> config) {
    this.client = client;
    this.config = config;
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beanFactory = (ListableBeanFactory) beanFactory;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (bean instanceof EventStore store) {
      provision(store, beanName);
    }
    return bean;
  }

  private void provision(EventStore store, String beanName) {
    // A DynamoDbEventStore provisions on its own client, so that stores on several accounts each get their
    // tables where they read them. A store of the application's own that is no DynamoDbEventStore (a
    // decorator, a proxy) is taken to use the tables of the StoreConfig bean on the DynamoDbClient bean.
    if (!(store instanceof DynamoDbEventStore) && !keepsTables(store)) {
      LOG.info("Not provisioning EventStore bean '" + beanName + "': " + store.getClass().getName()
          + " keeps no DynamoDB tables");
      return;
    }
    TableProvisioner provisioner = store instanceof DynamoDbEventStore dynamo
        ? dynamo.provisioner()
        : new TableProvisioner(client.getObject(), config.getObject());
    List<AggregateDefinition<?, ?, ?>> definitions = new ArrayList<>();
    for (Class<?> type : repositoryTypes()) {
      definitionOf(type, store).ifPresent(definitions::add);
    }
    List<String> created = provisioner.createTablesIfMissing(definitions.toArray(new AggregateDefinition<?, ?, ?>[0]));
    if (!created.isEmpty()) {
      LOG.info("Created DynamoDB tables " + created + " for EventStore bean '" + beanName + "'");
    }
  }

  /**
   * Whether {@code store} reads DynamoDB tables: an esgen store without a DynamoDB client (esgen-testkit's
   * in-memory store, which says so by refusing {@link StoreInternals#client()}) keeps none, and provisioning
   * its StoreConfig's tables on the application's DynamoDbClient would create tables nobody reads, in
   * whatever account that client reaches.
   */
  private static boolean keepsTables(EventStore store) {
    return StoreAccess.internals(store).map(internals -> {
      try {
        internals.client();
        return true;
      } catch (UnsupportedOperationException noClient) {
        return false;
      }
    }).orElse(true);
  }

  /** The types of the repository beans, known from their definitions: no bean is created to find them. */
  private Set<Class<?>> repositoryTypes() {
    Set<Class<?>> types = new LinkedHashSet<>();
    for (String name : beanFactory.getBeanNamesForType(EventSourcedRepository.class, true, false)) {
      Class<?> type = beanFactory.getType(name, false);
      if (type != null) {
        types.add(type);
      }
    }
    return types;
  }

  private static Optional<AggregateDefinition<?, ?, ?>> definitionOf(Class<?> type, EventStore store) {
    Optional<Constructor<?>> constructor = EsgenRepositoriesRegistrar.storeConstructor(type, EventStore.class);
    if (constructor.isEmpty()) {
      LOG.warn("Provisioning without the index slots of " + type.getName()
          + ": it has no public constructor taking only an EventStore to read its definition from");
      return Optional.empty();
    }
    try {
      // A package-private aggregate has a package-private repository, whose public constructor reflection
      // from this package may call only once made accessible, as Spring does when it creates the bean.
      ReflectionUtils.makeAccessible(constructor.get());
      EventSourcedRepository<?, ?, ?> repository = (EventSourcedRepository<?, ?, ?>) constructor.get().newInstance(store);
      return Optional.of(repository.definition());
    } catch (InvocationTargetException e) {
      throw new BeanCreationException("reading the aggregate definition of " + type.getName() + " failed",
          e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new BeanCreationException("reading the aggregate definition of " + type.getName() + " failed", e);
    }
  }
}
