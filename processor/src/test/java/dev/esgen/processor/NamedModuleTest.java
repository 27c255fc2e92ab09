package dev.esgen.processor;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.ArrayList;
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
   * A component model's annotations on a public repository of an exported package are part of the
   * module's API: with their module required transitively, as the docs say, nothing is warned about.
   */
  @Test
  void aComponentModelCompilesWithoutWarningsWhenItsModuleIsRequiredTransitively() throws IOException {
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean compiled = compile(shopRequiring("  requires transitive jakarta.inject;\n"), diagnostics,
        "-Aesgen.componentModel=jakarta");
    assertEquals(List.of(), diagnostics.getDiagnostics().stream().map(Object::toString).toList());
    assertTrue(compiled);
    String source = Files.readString(work.resolve("generated/shop/OrderRepository.java"));
    assertTrue(source.contains("@Singleton"), source);
  }

  /**
   * The annotations' jar on the module path is not enough: a named module reads only what it requires, so
   * the one error says which line module-info.java lacks, not to add a dependency that is there.
   */
  @Test
  void aComponentModelWhoseModuleTheDomainDoesNotReadIsOneErrorNamingTheRequires() throws IOException {
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean compiled = compile(shopRequiring(""), diagnostics, "-Aesgen.componentModel=jakarta");
    List<String> messages = diagnostics.getDiagnostics().stream().map(d -> d.getMessage(Locale.ROOT)).toList();
    assertEquals(1, messages.size(), messages.toString());
    assertTrue(messages.get(0).startsWith("[esgen:component-model-dependency] -Aesgen.componentModel=jakarta annotates"
        + " OrderRepository with @jakarta.inject.Singleton and @jakarta.inject.Inject, which module shop does not"
        + " read: add \"requires transitive jakarta.inject;\" to its module-info.java"), messages.get(0));
    assertFalse(compiled);
  }

  /** The {@code named} domain's sources with its module-info, plus {@code requires} lines before its exports. */
  private List<Path> shopRequiring(String requires) throws IOException {
    List<Path> sources = new ArrayList<>();
    for (Path source : domainSources("named")) {
      if (source.getFileName().toString().equals("module-info.java")) {
        Path moduleInfo = work.resolve("module/module-info.java");
        Files.createDirectories(moduleInfo.getParent());
        Files.writeString(moduleInfo, Files.readString(source).replace("  exports shop;", requires + "  exports shop;"));
        sources.add(moduleInfo);
      } else {
        sources.add(source);
      }
    }
    return sources;
  }

  /**
   * Compiles the domain under {@code domain} as a named module, asserts that not one diagnostic came,
   * and returns where the sources were generated. {@code -processing} is left out as in every build that
   * runs esgen (see GenerationTest), and the two {@code requires-*automatic} categories because esgen's
   * jars are automatic modules for now: they are about the user's {@code requires} lines, not about
   * generated code.
   */
  private Path compileWithoutWarnings(String domain) throws IOException {
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean compiled = compile(domainSources(domain), diagnostics);
    assertEquals(List.of(), diagnostics.getDiagnostics().stream().map(Object::toString).toList());
    assertTrue(compiled);
    return work.resolve("generated");
  }

  /**
   * Compiles {@code sources} as a named module with {@code options} besides the lint ones, generating into
   * {@code generated} in the work directory, and says whether it compiled.
   */
  private boolean compile(List<Path> sources, DiagnosticCollector<JavaFileObject> diagnostics, String... options)
      throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Path generated = Files.createDirectories(work.resolve("generated"));
    Path classes = Files.createDirectories(work.resolve("classes"));
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
              Stream.concat(
                  Stream.of("--release", "17",
                      "-Xlint:all,-processing,-requires-automatic,-requires-transitive-automatic", "-Werror"),
                  Stream.of(options)).toList(),
              null,
              files.getJavaFileObjectsFromPaths(sources));
      task.setProcessors(List.of(new EsgenProcessor()));
      return task.call();
    }
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
            location(com.fasterxml.jackson.annotation.JsonProperty.class),
            // Read only by a module that requires it: on the module path for the component model's tests.
            location(jakarta.inject.Inject.class));
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
