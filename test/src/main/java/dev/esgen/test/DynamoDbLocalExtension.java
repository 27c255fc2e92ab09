package dev.esgen.test;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * A JUnit 5 extension that gives each test class a running DynamoDB Local, a client of it and a
 * {@link TablePrefix} of its own.
 *
 * <p>Before the class's first test it takes the JVM's {@linkplain DynamoDbLocal#shared() shared server}
 * (starting it if it is the first), opens a client and draws a fresh prefix; after the class's last test
 * it deletes every table whose name carries the prefix and closes the client. Test classes that name
 * their tables with their prefix can therefore run in parallel on the one server. A {@code @Nested}
 * class shares its enclosing class's client and prefix.
 *
 * <p>Register it on the class and let JUnit pass what a test needs: parameters of type
 * {@link DynamoDbClient}, {@link TablePrefix} and {@link DynamoDbLocal} are resolved in constructors,
 * {@code @BeforeAll} methods, tests and the other lifecycle methods. A parameter another extension reads
 * (Spring's {@code @Autowired DynamoDbClient}, Mockito's {@code @Mock}) is left to it, as
 * {@link ParameterOwnership} says.
 *
 * <pre>{@code
 * @ExtendWith(DynamoDbLocalExtension.class)
 * class BankAccountTest {
 *   static BankAccountRepository accounts;
 *
 *   @BeforeAll
 *   static void tables(DynamoDbClient client, TablePrefix tables) {
 *     StoreConfig config = StoreConfig.defaults()
 *         .withJournalTable(tables.name("journal"))
 *         .withSnapshotTable(tables.name("snapshot"))
 *         .withTipTable(tables.name("streams"));
 *     new TableProvisioner(client, config).createTablesIfMissing(BankAccountRepository.definition(config.objectMapper()));
 *     accounts = new BankAccountRepository(DynamoDbEventStore.create(client, config));
 *   }
 *
 *   @Test
 *   void opens() { ... }
 * }
 * }</pre>
 *
 * <p>Or keep it in a static field and ask it, in lifecycle methods and tests:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final DynamoDbLocalExtension dynamo = new DynamoDbLocalExtension();
 *
 * @Test
 * void listsNoTablesOfThisClassYet() {
 *   assertTrue(dynamo.client().listTables().tableNames().stream().noneMatch(dynamo.tables()::owns));
 * }
 * }</pre>
 *
 * <p>An instance serves one test class at a time: give each class its own field (a field inherited from
 * a common superclass works while those classes do not run at the same time). The server's mode follows
 * {@link DynamoDbLocal#MODE_PROPERTY}.
 */
public final class DynamoDbLocalExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DynamoDbLocalExtension.class);
  private static final String RESOURCES = "class-resources";

  /** What the class being run has, for the accessors of a {@code @RegisterExtension} field. */
  private volatile ClassResources active;

  /** An extension to register with {@code @RegisterExtension} on a static field, or through {@code @ExtendWith}. */
  public DynamoDbLocalExtension() {}

  /**
   * What one test class uses. {@link #afterAll} removes and releases it; when JUnit calls no afterAll callback
   * (the constructor of a {@code @TestInstance(PER_CLASS)} class that asked for it failed), the class's store
   * releases it as it closes.
   */
  // JUnit 5.13 and later close an AutoCloseable (and warn about a CloseableResource that is not one); earlier
  // versions close only a CloseableResource, deprecated since 5.13.
  @SuppressWarnings("deprecation")
  private record ClassResources(DynamoDbLocalExtension owner, Class<?> testClass, DynamoDbLocal server,
      DynamoDbClient client, TablePrefix tables) implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    @Override
    public void close() {
      owner.release(this);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (context.getStore(NAMESPACE).get(RESOURCES, ClassResources.class) == null) {
      open(context);
    }
    // Otherwise a @Nested class, whose enclosing class's resources serve it, or a class whose instance,
    // created before its @BeforeAll callbacks (@TestInstance(PER_CLASS)), asked for them already.
  }

  /** Takes the shared server, opens a client and draws a prefix for the class {@code context} runs. */
  private ClassResources open(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    synchronized (this) {
      if (active != null) {
        throw new IllegalStateException("this DynamoDbLocalExtension serves " + active.testClass().getName()
            + ", which runs at the same time as " + testClass.getName() + ": give each test class an"
            + " extension of its own (its own static field, or @ExtendWith)");
      }
      DynamoDbLocal server = DynamoDbLocal.shared();
      ClassResources resources = new ClassResources(this, testClass, server, server.newClient(),
          TablePrefix.fresh(testClass.getSimpleName()));
      context.getStore(NAMESPACE).put(RESOURCES, resources);
      active = resources;
      return resources;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    // Removes from this class's store only: a @Nested class finds nothing and leaves its enclosing class's.
    ClassResources resources = context.getStore(NAMESPACE).remove(RESOURCES, ClassResources.class);
    if (resources != null) {
      release(resources);
    }
  }

  /** Deletes the class's tables, closes its client and frees this extension for the next class. */
  private void release(ClassResources resources) {
    try (DynamoDbClient client = resources.client()) {
      deleteTables(client, resources.tables());
    } finally {
      synchronized (this) {
        if (active == resources) {
          active = null;
        }
      }
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return (type == DynamoDbClient.class || type == TablePrefix.class || type == DynamoDbLocal.class)
        && !ParameterOwnership.belongsToAnotherExtension(parameter.getParameter(), context);
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ClassResources resources = context.getStore(NAMESPACE).get(RESOURCES, ClassResources.class);
    if (resources == null && context.getTestMethod().isEmpty() && context.getTestClass().isPresent()) {
      // The constructor of a @TestInstance(PER_CLASS) class, which JUnit calls before the @BeforeAll callbacks.
      resources = open(context);
    }
    if (resources == null) {
      throw new ParameterResolutionException("DynamoDbLocalExtension has no client for "
          + parameter.getDeclaringExecutable() + ": register it on the test class (@ExtendWith, or"
          + " @RegisterExtension on a static field), not on a method or an instance field");
    }
    Class<?> type = parameter.getParameter().getType();
    if (type == DynamoDbClient.class) {
      return resources.client();
    }
    return type == TablePrefix.class ? resources.tables() : resources.server();
  }

  /** The test class's client; closed after its last test. */
  public DynamoDbClient client() {
    return current().client();
  }

  /** The test class's table-name prefix. */
  public TablePrefix tables() {
    return current().tables();
  }

  /** The server the test class runs against: the JVM's shared one. */
  public DynamoDbLocal server() {
    return current().server();
  }

  /**
   * Deletes every table {@code client} sees whose name carries {@code tables}, as the extension does
   * after a test class; a table deleted meanwhile is no error. For extensions of your own that name a
   * class's tables with a {@link TablePrefix}.
   *
   * <pre>{@code
   * try (DynamoDbClient client = server.newClient()) {
   *   DynamoDbLocalExtension.deleteTables(client, tables);
   * }
   * }</pre>
   */
  public static void deleteTables(DynamoDbClient client, TablePrefix tables) {
    List<String> owned = new ArrayList<>();
    String start = null;
    do {
      String from = start;
      ListTablesResponse page = client.listTables(b -> b.exclusiveStartTableName(from));
      page.tableNames().stream().filter(tables::owns).forEach(owned::add);
      start = page.lastEvaluatedTableName();
    } while (start != null);
    for (String table : owned) {
      try {
        client.deleteTable(b -> b.tableName(table));
      } catch (ResourceNotFoundException alreadyGone) {
        // deleted by the test itself in the meantime
      }
    }
  }

  private ClassResources current() {
    ClassResources resources = active;
    if (resources == null) {
      throw new IllegalStateException("DynamoDbLocalExtension serves no test class now: register it with"
          + " @RegisterExtension on a static field, and use it from that class's tests and lifecycle methods");
    }
    return resources;
  }
}
