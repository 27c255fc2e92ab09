package dev.esgen.spring.boot.autoconfigure;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.repository.AsyncEventSourcedRepository;
import dev.esgen.runtime.repository.EventSourcedRepository;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.ResourceLoaderAware;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.filter.AssignableTypeFilter;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Registers a bean for every concrete {@link EventSourcedRepository} and {@link AsyncEventSourcedRepository}
 * subclass (the generated {@code FooRepository} and {@code FooAsyncRepository} classes) in the
 * auto-configuration packages, as Spring Data does for its repositories: the packages of the
 * {@code @SpringBootApplication} class, or those named with {@code @AutoConfigurationPackage}. Each bean is
 * constructed through the class's public constructor taking only its store ({@link EventStore}, or
 * {@link AsyncEventStore} for an async repository), which is resolved by type. A class the application
 * already has a bean of is left alone, so a repository bean of one's own replaces the registered one. Async
 * repositories are registered lazily: one is made, and needs its store, only when something injects it.
 */
final class EsgenRepositoriesRegistrar
    implements ImportBeanDefinitionRegistrar, BeanFactoryAware, BeanClassLoaderAware, EnvironmentAware,
        ResourceLoaderAware {

  private static final Log LOG = LogFactory.getLog(EsgenRepositoriesRegistrar.class);

  private BeanFactory beanFactory;
  private ClassLoader classLoader;
  private Environment environment;
  private ResourceLoader resourceLoader;

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beanFactory = beanFactory;
  }

  @Override
  public void setBeanClassLoader(ClassLoader classLoader) {
    this.classLoader = classLoader;
  }

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  @Override
  public void setResourceLoader(ResourceLoader resourceLoader) {
    this.resourceLoader = resourceLoader;
  }

  @Override
  public void registerBeanDefinitions(AnnotationMetadata importingClass, BeanDefinitionRegistry registry) {
    if (!AutoConfigurationPackages.has(beanFactory)) {
      LOG.debug("No auto-configuration packages: no esgen repository is registered");
      return;
    }
    for (String basePackage : AutoConfigurationPackages.get(beanFactory)) {
      for (BeanDefinition candidate : scanner().findCandidateComponents(basePackage)) {
        register(candidate.getBeanClassName(), registry);
      }
    }
  }

  private void register(String className, BeanDefinitionRegistry registry) {
    Class<?> type = ClassUtils.resolveClassName(className, classLoader);
    if (alreadyDefined(type)) {
      LOG.debug("Not registering " + className + ": the application defines a bean of that type");
      return;
    }
    Class<?> store = storeType(type);
    Optional<Constructor<?>> constructor = storeConstructor(type, store);
    if (constructor.isEmpty()) {
      LOG.info("Not registering " + className + " as a bean: it has no public constructor taking only an "
          + store.getSimpleName());
      return;
    }
    RootBeanDefinition definition = new RootBeanDefinition(type);
    // Spelled out rather than left to constructor resolution: a generated repository may also have a
    // constructor taking an EventStore and an AggregateDefinition, which must not be picked.
    definition.setAttribute(AbstractBeanDefinition.PREFERRED_CONSTRUCTORS_ATTRIBUTE, constructor.get());
    // Every async aggregate has a synchronous repository too, and most applications use one kind: an
    // async repository nobody injects must not demand a DynamoDbAsyncClient.
    definition.setLazyInit(store == AsyncEventStore.class);
    registry.registerBeanDefinition(beanName(type, registry), definition);
  }

  private boolean alreadyDefined(Class<?> type) {
    return beanFactory instanceof ListableBeanFactory listable
        && listable.getBeanNamesForType(type, true, false).length > 0;
  }

  /** The store a repository of {@code type} is built on: an async repository's is an {@link AsyncEventStore}. */
  static Class<?> storeType(Class<?> type) {
    return AsyncEventSourcedRepository.class.isAssignableFrom(type) ? AsyncEventStore.class : EventStore.class;
  }

  /** The public constructor whose only parameter is a {@code store}. */
  static Optional<Constructor<?>> storeConstructor(Class<?> type, Class<?> store) {
    for (Constructor<?> constructor : type.getConstructors()) {
      if (List.of(constructor.getParameterTypes()).equals(List.of(store))) {
        return Optional.of(constructor);
      }
    }
    return Optional.empty();
  }

  /** As component scanning names beans ({@code bankAccountRepository}); the full class name when that is taken. */
  private static String beanName(Class<?> type, BeanDefinitionRegistry registry) {
    String shortName = StringUtils.uncapitalizeAsProperty(ClassUtils.getShortName(type));
    return registry.containsBeanDefinition(shortName) ? type.getName() : shortName;
  }

  private ClassPathScanningCandidateComponentProvider scanner() {
    ClassPathScanningCandidateComponentProvider scanner =
        new ClassPathScanningCandidateComponentProvider(false, environment) {
          @Override
          protected boolean isCandidateComponent(AnnotatedBeanDefinition definition) {
            AnnotationMetadata metadata = definition.getMetadata();
            return metadata.isIndependent() && metadata.isConcrete();
          }
        };
    scanner.setResourceLoader(resourceLoader);
    scanner.addIncludeFilter(new AssignableTypeFilter(EventSourcedRepository.class));
    scanner.addIncludeFilter(new AssignableTypeFilter(AsyncEventSourcedRepository.class));
    return scanner;
  }
}
