package dev.esgen.testkit.junit;

import java.util.Locale;

/**
 * Where {@link EsgenTest} stores a test class's events: in memory, or in DynamoDB Local.
 *
 * <pre>{@code
 * @EsgenTest(backend = Backend.DYNAMODB_LOCAL)      // always on DynamoDB Local
 * class TransferStorageTest { ... }
 * }</pre>
 *
 * <p>With {@link #CONFIGURED}, the default, the JUnit configuration parameter (or system property)
 * {@value #PROPERTY} decides, so that one switch runs the same service tests on either backend:
 * {@code mvn test -Desgen.test.backend=dynamodb-local}, or a line in
 * {@code src/test/resources/junit-platform.properties}.
 */
public enum Backend {

  /** What {@value #PROPERTY} says; {@link #IN_MEMORY} when it is not set. */
  CONFIGURED(""),

  /** An {@link dev.esgen.testkit.memory.InMemoryEventStore}: no server, microseconds per append. */
  IN_MEMORY("in-memory"),

  /**
   * A {@code DynamoDbEventStore} on the JVM's shared DynamoDB Local (see esgen-test's {@code DynamoDbLocal}),
   * in tables of the test class's own that are created on first use and deleted after the class.
   */
  DYNAMODB_LOCAL("dynamodb-local");

  /** The configuration parameter or system property that {@link #CONFIGURED} reads. */
  public static final String PROPERTY = "esgen.test.backend";

  private final String propertyValue;

  Backend(String propertyValue) {
    this.propertyValue = propertyValue;
  }

  /** The value of {@value #PROPERTY} that selects this backend; empty for {@link #CONFIGURED}. */
  public String propertyValue() {
    return propertyValue;
  }

  /**
   * The backend a value of {@value #PROPERTY} names; {@link #IN_MEMORY} for null or blank.
   *
   * @throws IllegalArgumentException when it names no backend
   */
  public static Backend named(String value) {
    if (value == null || value.isBlank()) {
      return IN_MEMORY;
    }
    String wanted = value.trim().toLowerCase(Locale.ROOT);
    for (Backend backend : values()) {
      if (backend != CONFIGURED && backend.propertyValue.equals(wanted)) {
        return backend;
      }
    }
    throw new IllegalArgumentException(PROPERTY + " is '" + value + "'; use " + IN_MEMORY.propertyValue + " or "
        + DYNAMODB_LOCAL.propertyValue);
  }
}
