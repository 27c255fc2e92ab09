package dev.esgen.testkit.junit;

import dev.esgen.runtime.AsyncEventStore;
import dev.esgen.runtime.EventStore;
import dev.esgen.runtime.config.StoreConfig;
import dev.esgen.test.DynamoDbLocal;
import dev.esgen.test.DynamoDbLocalExtension;
import dev.esgen.test.ParameterOwnership;
import dev.esgen.test.TablePrefix;
import dev.esgen.testkit.memory.InMemoryEventStore;
import dev.esgen.testkit.time.MutableClock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The JUnit 5 extension behind {@link EsgenTest}: before a test class's first test it makes the class's
 * {@link MutableClock} and {@link EventStore} on the chosen {@link Backend}, resolves parameters of those
 * two types, sets the clock back to its start before each test, and after the class's last test lets them go
 * (on DynamoDB Local: deletes the class's tables and closes its clients). A parameter of type
 * {@link AsyncEventStore} gets the same store's asynchronous twin, for asynchronous repositories:
 * {@link InMemoryEventStore#async()} in memory, on DynamoDB Local a store on the class's tables with a client
 * of its own, sharing the store's cache. A parameter of type {@link InMemoryEventStore} gets the store itself
 * when the class runs in memory (to {@code seed} it, say).
 *
 * <p>{@code @EsgenTest} on the class is the usual way in. To change the store's settings (a mapper with
 * your application's Jackson modules, a retry policy), register the extension in a static field instead,
 * without {@code @EsgenTest}:
 *
 * <pre>{@code
 * class PricingServiceTest {
 *   @RegisterExtension
 *   static final EsgenTestExtension esgen = EsgenTestExtension.create()
 *       .withConfig(config -> config.withObjectMapper(Json.mapper()))
 *       .withBackend(Backend.IN_MEMORY);
 *
 *   @Test
 *   void quotes(EventStore store, MutableClock clock) { ... }
 * }
 * }</pre>
 *
 * <p>On DynamoDB Local the class's tables are named with a fresh {@link TablePrefix}, so classes running in
 * parallel never meet; whatever {@code withConfig} sets, the extension sets the table names and the clock
 * last. An instance keeps nothing of a class in its fields, so one field may serve classes running at the
 * same time.
 */
public final class EsgenTestExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(EsgenTestExtension.class);
  private static final String RESOURCES = "class-store";

  /** The settings of an extension made in code; null for the one {@code @EsgenTest} registers. */
  private final Settings settings;

  private record Settings(Backend backend, Instant clockStart, UnaryOperator<StoreConfig> config) {}

  /**
   * What one test class uses. {@link #afterAll} removes and releases it; when JUnit calls no afterAll callback
   * (the constructor of a {@code @TestInstance(PER_CLASS)} class that asked for the store failed), the class's
   * store releases it as it closes.
   *
   * @param clockStart where the clock stands at the start of each test
   * @param async the asynchronous twin of {@code store}, on the same data
   */
  // JUnit 5.13 and later close an AutoCloseable (and warn about a CloseableResource that is not one); earlier
  // versions close only a CloseableResource, deprecated since 5.13.
  @SuppressWarnings({"deprecation", "try"})
  private record ClassStore(EventStore store, MutableClock clock, Instant clockStart, Backend backend,
      Supplier<AsyncEventStore> async, AutoCloseable release)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    @Override
    public void close() throws Exception {
      release.close();
    }
  }

  /** An asynchronous store beside a class's store on DynamoDB Local, and its client, made when first asked for. */
  private static final class AsyncTwin implements AutoCloseable {
    private final TablesOnFirstUse store;
    private DynamoDbAsyncClient client;
    private AsyncEventStore async;

    AsyncTwin(TablesOnFirstUse store) {
      this.store = store;
    }

    synchronized AsyncEventStore get() {
      if (async == null) {
        client = DynamoDbLocal.shared().newAsyncClient();
        async = store.async(client);
      }
      return async;
    }

    @Override
    public synchronized void close() {
      if (client != null) {
        client.close();
      }
    }
  }

  /** The extension {@code @EsgenTest} registers: its settings come from the annotation. */
  public EsgenTestExtension() {
    this.settings = null;
  }

  private EsgenTestExtension(Settings settings) {
    this.settings = settings;
  }

  /**
   * An extension for {@code @RegisterExtension}: the backend {@value Backend#PROPERTY} names, a clock at
   * {@code 2026-01-01T00:00:00Z}, {@link StoreConfig#defaults()}.
   */
  public static EsgenTestExtension create() {
    return new EsgenTestExtension(new Settings(Backend.CONFIGURED, defaultClockStart(), UnaryOperator.identity()));
  }

  /** This extension with the store's settings changed by {@code change}, applied to {@link StoreConfig#defaults()}. */
  public EsgenTestExtension withConfig(UnaryOperator<StoreConfig> change) {
    Objects.requireNonNull(change, "change");
    Settings current = current();
    return new EsgenTestExtension(new Settings(current.backend(), current.clockStart(), change));
  }

  /** This extension storing on {@code backend}. */
  public EsgenTestExtension withBackend(Backend backend) {
    Objects.requireNonNull(backend, "backend");
    Settings current = current();
    return new EsgenTestExtension(new Settings(backend, current.clockStart(), current.config()));
  }

  /** This extension with the class's clock starting at {@code start}. */
  public EsgenTestExtension withClockStart(Instant start) {
    Objects.requireNonNull(start, "start");
    Settings current = current();
    return new EsgenTestExtension(new Settings(current.backend(), start, current.config()));
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (needsOwnStore(context, context.getStore(NAMESPACE).get(RESOURCES, ClassStore.class))) {
      open(context);
    }
    // Otherwise a @Nested class, whose enclosing class's store serves it, or a class whose instance,
    // created before its @BeforeAll callbacks (@TestInstance(PER_CLASS)), asked for the store already.
  }

  /**
   * Whether the class {@code context} runs needs a store of its own, {@code found} being what its context
   * finds: nothing yet, or only its enclosing class's when it is a {@code @Nested} class that carries
   * {@code @EsgenTest} itself (with settings of its own, say another backend).
   */
  private boolean needsOwnStore(ExtensionContext context, ClassStore found) {
    if (found == null) {
      return true;
    }
    // Also when this extension is an enclosing class's field: JUnit registers no second extension of this type
    // for a @Nested class's @EsgenTest, so this one serves it.
    Class<?> testClass = context.getTestClass().orElse(null);
    if (testClass == null || testClass.getEnclosingClass() == null
        || !AnnotationSupport.isAnnotated(testClass, EsgenTest.class)) {
      return false;
    }
    return context.getParent()
        .map(enclosing -> enclosing.getStore(NAMESPACE).get(RESOURCES, ClassStore.class) == found)
        .orElse(false);
  }

  /** Makes the store and clock of the class {@code context} runs, and keeps them in its store. */
  private ClassStore open(ExtensionContext context) {
    Settings chosen = settings == null
        ? fromAnnotation(context.getRequiredTestClass())
        : context.getStore(NAMESPACE).get(RESOURCES, ClassStore.class) == null
            ? settings
            // A @Nested class with @EsgenTest of its own under a class that registered this extension in a
            // field: the annotation's backend and clock, the field's store settings.
            : withConfig(fromAnnotation(context.getRequiredTestClass()), settings.config());
    Backend backend = chosen.backend() == Backend.CONFIGURED
        ? Backend.named(context.getConfigurationParameter(Backend.PROPERTY).orElse(null))
        : chosen.backend();
    MutableClock clock = MutableClock.at(chosen.clockStart());
    StoreConfig config = chosen.config().apply(StoreConfig.defaults());
    ClassStore resources = backend == Backend.DYNAMODB_LOCAL
        ? onDynamoDbLocal(context.getRequiredTestClass(), config, clock, chosen.clockStart())
        : inMemory(config, clock, chosen.clockStart(), backend);
    context.getStore(NAMESPACE).put(RESOURCES, resources);
    return resources;
  }

  /**
   * Sets the clock back to its start: a test that moved it must not move the time of the tests after it,
   * whose order JUnit chooses.
   */
  @Override
  public void beforeEach(ExtensionContext context) {
    ClassStore resources = context.getStore(NAMESPACE).get(RESOURCES, ClassStore.class);
    if (resources != null) {
      resources.clock().set(resources.clockStart());
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    // Removes from this class's store only: a @Nested class finds nothing and leaves its enclosing class's.
    ClassStore resources = context.getStore(NAMESPACE).remove(RESOURCES, ClassStore.class);
    if (resources != null) {
      resources.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return (type == EventStore.class || type == AsyncEventStore.class || type == MutableClock.class
        || type == Backend.class || type == InMemoryEventStore.class)
        && !ParameterOwnership.belongsToAnotherExtension(parameter.getParameter(), context);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ClassStore resources = context.getStore(NAMESPACE).get(RESOURCES, ClassStore.class);
    if (context.getTestMethod().isEmpty() && context.getTestClass().isPresent() && needsOwnStore(context, resources)) {
      // The constructor of a @TestInstance(PER_CLASS) class, which JUnit calls before the @BeforeAll callbacks.
      resources = open(context);
    }
    if (resources == null) {
      throw new ParameterResolutionException("EsgenTestExtension has no store for "
          + parameter.getDeclaringExecutable() + ": put @EsgenTest on the test class, or register the extension"
          + " with @RegisterExtension on a static field, not on a method or an instance field");
    }
    Class<?> type = parameter.getParameter().getType();
    if (type == EventStore.class) {
      return resources.store();
    }
    if (type == AsyncEventStore.class) {
      return resources.async().get();
    }
    if (type == InMemoryEventStore.class) {
      if (resources.store() instanceof InMemoryEventStore inMemory) {
        return inMemory;
      }
      throw new ParameterResolutionException("a parameter of type InMemoryEventStore needs the in-memory store, and "
          + parameter.getDeclaringExecutable() + " runs on " + resources.backend() + ": pin its class with"
          + " @EsgenTest(backend = Backend.IN_MEMORY), or ask for an EventStore");
    }
    return type == MutableClock.class ? resources.clock() : resources.backend();
  }

  private Settings current() {
    return settings != null
        ? settings
        : new Settings(Backend.CONFIGURED, defaultClockStart(), UnaryOperator.identity());
  }

  private static Settings withConfig(Settings annotated, UnaryOperator<StoreConfig> config) {
    return new Settings(annotated.backend(), annotated.clockStart(), config);
  }

  private static Settings fromAnnotation(Class<?> testClass) {
    Optional<EsgenTest> annotation = AnnotationSupport.findAnnotation(testClass, EsgenTest.class);
    if (annotation.isEmpty()) {
      return new Settings(Backend.CONFIGURED, defaultClockStart(), UnaryOperator.identity());
    }
    Instant start;
    try {
      start = Instant.parse(annotation.get().clockStart());
    } catch (DateTimeParseException e) {
      throw new ExtensionConfigurationException("@EsgenTest(clockStart = \"" + annotation.get().clockStart()
          + "\") on " + testClass.getName() + " is no ISO-8601 instant such as 2026-01-01T00:00:00Z", e);
    }
    return new Settings(annotation.get().backend(), start, UnaryOperator.identity());
  }

  private static Instant defaultClockStart() {
    try {
      return Instant.parse((String) EsgenTest.class.getMethod("clockStart").getDefaultValue());
    } catch (NoSuchMethodException impossible) {
      throw new IllegalStateException("EsgenTest declares clockStart", impossible);
    }
  }

  private static ClassStore inMemory(StoreConfig config, MutableClock clock, Instant clockStart, Backend backend) {
    InMemoryEventStore store = InMemoryEventStore.create(config.withClock(clock));
    return new ClassStore(store, clock, clockStart, backend, store::async, () -> {});
  }

  private static ClassStore onDynamoDbLocal(Class<?> testClass, StoreConfig config, MutableClock clock,
      Instant clockStart) {
    DynamoDbLocal server = DynamoDbLocal.shared();
    DynamoDbClient client = server.newClient();
    TablePrefix tables = TablePrefix.fresh(testClass.getSimpleName());
    StoreConfig own = config
        .withJournalTable(tables.name("journal"))
        .withSnapshotTable(tables.name("snapshot"))
        .withTipTable(tables.name("streams"))
        .withPositionsTable(tables.name("positions"))
        .withClock(clock);
    TablesOnFirstUse store = new TablesOnFirstUse(client, own);
    AsyncTwin async = new AsyncTwin(store);
    return new ClassStore(store, clock, clockStart, Backend.DYNAMODB_LOCAL, async::get, () -> {
      try (client; async) {
        DynamoDbLocalExtension.deleteTables(client, tables);
      }
    });
  }
}
