package dev.esgen.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;
import java.util.Properties;

/**
 * DynamoDB Local as the caller's classpath holds it: its entry class, the jar that class came from and
 * the version that jar states. Nothing about it is fixed when esgen-test is built.
 *
 * @param serverRunner DynamoDB Local's command-line entry class, loaded but not initialized
 * @param jar where {@code serverRunner} was loaded from, when its class loader says
 * @param version the version in the jar's Maven metadata, {@code "unknown"} when it has none
 */
record DynamoDbLocalOnClasspath(Class<?> serverRunner, Optional<Path> jar, String version) {

  /** The entry class of DynamoDB Local 3.x; 2.x and older lived in {@code com.amazonaws} and are not supported. */
  static final String SERVER_RUNNER = "software.amazon.dynamodb.services.local.main.ServerRunner";

  private static final String POM_PROPERTIES = "META-INF/maven/software/amazon/dynamodb/DynamoDBLocal/pom.properties";

  /**
   * Looks for DynamoDB Local with the class loader that loaded esgen-test, then the thread's.
   *
   * @throws IllegalStateException when neither finds it; the message says which dependency to add
   */
  static DynamoDbLocalOnClasspath find() {
    Class<?> runner = load(DynamoDbLocalOnClasspath.class.getClassLoader())
        .or(() -> load(Thread.currentThread().getContextClassLoader()))
        .orElseThrow(() -> new IllegalStateException(
            "DynamoDB Local is not on the classpath (class " + SERVER_RUNNER + " not found): add the test"
                + " dependency software.amazon.dynamodb:DynamoDBLocal (3.x), which esgen-test brings unless it"
                + " was excluded"));
    return new DynamoDbLocalOnClasspath(runner, jarOf(runner), versionBeside(runner));
  }

  private static Optional<Class<?>> load(ClassLoader loader) {
    if (loader == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Class.forName(SERVER_RUNNER, false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return Optional.empty();
    }
  }

  private static Optional<Path> jarOf(Class<?> type) {
    CodeSource source = type.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(source.getLocation().toURI()));
    } catch (URISyntaxException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static String versionBeside(Class<?> type) {
    ClassLoader loader = type.getClassLoader();
    try (InputStream in = loader == null ? null : loader.getResourceAsStream(POM_PROPERTIES)) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + POM_PROPERTIES, e);
    }
  }
}
