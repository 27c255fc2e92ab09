package dev.esgen.processor;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.esgen.annotations.Aggregate;
import dev.esgen.runtime.EventStore;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's domain in a named module: its module-info requires esgen's annotations and runtime and
 * Jackson, and nothing that only the generated code would need. Generated sources must compile there
 * without a warning, which rules out {@code javax.annotation.processing.Generated} (module {@code java.compiler})
 * and implicit constructors ({@code missing-explicit-ctor} in an exported package).
 *
 * <p>javac is called through {@code javax.tools} rather than compile-testing, whose in-memory file manager
 * hands a {@code module-info.java} source to every module on the module path as that module's own.
 */
class NamedModuleTest {

  @TempDir Path work;

  @Test
  void generatedSourcesCompileWithoutAnyWarningInANamedModule() throws IOException {
    Path generated = compileWithoutWarnings("named");
    String source = Files.readString(generated.resolve("shop/OrderRepository.java"));
    assertTrue(source.contains("import dev.esgen.annotations.Generated;"), source);
    assertTrue(source.contains("\npublic final class OrderRepository "), source);
  }

  /**
   * A package-private aggregate in an exported package: a public repository naming it would be warned
   * about ({@code exports}) wherever it does, so the repository is package-private like the aggregate.
   */
  @Test
  void theRepositoryOfAPackagePrivateAggregateIsPackagePrivateToo() throws IOException {
    Path generated = compileWithoutWarnings("named-internal");
    String source = Files.readString(generated.resolve("shop/OrderRepository.java"));
    assertTrue(source.contains("\nfinal class OrderRepository "), source);
  }

  /**
   * Compiles the domain under {@code domain} as a named module, asserts that not one diagnostic came,
   * and returns where the sources were generated. {@code -processing} is left out as in every build that
   * runs esgen (see GenerationTest), and the two {@code requires-*automatic} categories because esgen's
   * jars are automatic modules for now: they are about the user's {@code requires} lines, not about
   * generated code.
   */
  private Path compileWithoutWarnings(String domain) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path generated = Files.createDirectories(work.resolve("generated"));
    Path classes = Files.createDirectories(work.resolve("classes"));
    boolean compiled;
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, UTF_8)) {
      files.setLocationFromPaths(StandardLocation.MODULE_PATH, modulePath());
      // Nothing on the class path: a named module reads only what its module-info requires.
      files.setLocationFromPaths(StandardLocation.CLASS_PATH, List.of());
      files.setLocationFromPaths(StandardLocation.SOURCE_OUTPUT, List.of(generated));
      files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(classes));
      JavaCompiler.CompilationTask task =
          javac.getTask(
              null,
              files,
              diagnostics,
              List.of(
                  "--release", "17", "-Xlint:all,-processing,-requires-automatic,-requires-transitive-automatic",
                  "-Werror"),
              null,
              files.getJavaFileObjectsFromPaths(domainSources(domain)));
      task.setProcessors(List.of(new EsgenProcessor()));
      compiled = task.call();
    }
    assertEquals(List.of(), diagnostics.getDiagnostics().stream().map(Object::toString).toList());
    assertTrue(compiled);
    return generated;
  }

  private static List<Path> domainSources(String domain) throws IOException {
    Path root = location(NamedModuleTest.class).resolve(domain);
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(path -> path.toString().endsWith(".java")).toList();
    }
  }

  /**
   * esgen's annotations and runtime as the automatic modules their jars declare, and Jackson, whose
   * types the generated codecs take. In a reactor build that has not packaged them yet, a module's
   * classes are a directory, which cannot be an automatic module: it is jarred here under the name
   * its pom gives the jar.
   */
  private List<Path> modulePath() {
    return List.of(
            asModule(Aggregate.class, "dev.esgen.annotations"),
            asModule(EventStore.class, "dev.esgen.runtime"),
            location(ObjectMapper.class),
            location(com.fasterxml.jackson.core.JsonParser.class),
            location(com.fasterxml.jackson.annotation.JsonProperty.class));
  }

  private Path asModule(Class<?> type, String moduleName) {
    Path location = location(type);
    if (!Files.isDirectory(location)) {
      return location;
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(new Attributes.Name("Automatic-Module-Name"), moduleName);
    Path jar = work.resolve(moduleName + ".jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest);
        Stream<Path> classes = Files.walk(location)) {
      for (Path path : classes.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(location.relativize(path).toString().replace(File.separatorChar, '/')));
        Files.copy(path, out);
        out.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return jar;
  }

  private static Path location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
