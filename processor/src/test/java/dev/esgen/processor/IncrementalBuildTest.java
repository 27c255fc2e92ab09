package dev.esgen.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * esgen under an incremental build. Each aggregate's generated files depend on that aggregate alone, so
 * the processor is <em>isolating</em> to Gradle, which then reprocesses only the aggregates whose sources
 * changed (their snapshot fingerprints hash their source, which an unchanged aggregate read from its class
 * file would not offer). The stored-name check across aggregates only reports errors; a clash with an
 * aggregate of an earlier compilation is still seen whenever a build hands that aggregate back, and the
 * store refuses it at run time otherwise.
 */
class IncrementalBuildTest {

  private static final List<String> BANK = List.of(
      "valid/AccountEvent.java", "valid/AccountOpened.java", "valid/MoneyDeposited.java", "valid/AccountClosed.java",
      "valid/AccountId.java", "valid/BankAccount.java");

  @Test
  void gradleRunsTheProcessorAsIsolating() throws IOException {
    try (InputStream in = EsgenProcessor.class.getResourceAsStream("/META-INF/gradle/incremental.annotation.processors")) {
      assertEquals("dev.esgen.processor.EsgenProcessor,isolating", new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
    }
  }

  /** A stored name claimed in an earlier compilation is seen when the build hands its aggregate back. */
  @Test
  void aStoredNameClaimedInAnEarlierCompilationClashes(@TempDir Path work) throws IOException {
    Path classes = work.resolve("classes");
    assertTrue(compile(sources(BANK), List.of(), List.of("-d", classes.toString(), "-s", work.resolve("first").toString()))
        .isEmpty());

    List<Diagnostic<? extends JavaFileObject>> errors = compile(
        sources(List.of("incremental/SavingsAccount.java")),
        List.of("fixture.BankAccount"),
        List.of("-proc:only", "-cp", classPath(classes), "-s", work.resolve("generated").toString()));

    assertEquals(1, errors.size(), errors.toString());
    assertTrue(errors.get(0).getMessage(Locale.ROOT).contains("[esgen:duplicate-aggregate-name] aggregate name"
        + " \"bank-account\" of fixture."), errors.get(0).getMessage(Locale.ROOT));
    assertTrue(errors.get(0).getMessage(Locale.ROOT).contains("fixture.BankAccount")
        && errors.get(0).getMessage(Locale.ROOT).contains("fixture.SavingsAccount"), errors.get(0).getMessage(Locale.ROOT));
  }

  /**
   * A class of upcasters in another package than the events that list it, recompiled alone (as an
   * incremental build does when only it changed): the type that lists it is not compiled here, so it is
   * found through the events its upcasters return, or the class is left to a compilation that has it.
   */
  @Test
  void upcastersListedFromAnotherPackageAreNotReportedWhenRecompiledAlone(@TempDir Path work) throws IOException {
    Path classes = work.resolve("classes");
    List<Diagnostic<? extends JavaFileObject>> full = compile(
        sources(List.of("incremental/upcasters/Ledger.java", "incremental/upcasters/LedgerEvent.java",
            "incremental/upcasters/LedgerUpcasters.java")),
        List.of(), List.of("-d", classes.toString(), "-s", work.resolve("first").toString()));
    assertTrue(full.isEmpty(), full.toString());

    List<String> againstClasses = List.of("-d", work.resolve("again").toString(), "-cp", classPath(classes),
        "-s", work.resolve("generated").toString());
    List<Diagnostic<? extends JavaFileObject>> alone =
        compile(sources(List.of("incremental/upcasters/LedgerUpcasters.java")), List.of(), againstClasses);
    assertTrue(alone.isEmpty(), alone.toString());

    // One that returns events names their root, which does not list it: that is still an error.
    List<Diagnostic<? extends JavaFileObject>> stray =
        compile(sources(List.of("incremental/upcasters/StrayUpcasters.java")), List.of(), againstClasses);
    assertEquals(1, stray.size(), stray.toString());
    assertTrue(stray.get(0).getMessage(Locale.ROOT).startsWith("[esgen:upcast-ignored] upcaster StrayUpcasters.bonus"),
        stray.get(0).getMessage(Locale.ROOT));

    // One that returns JSON only names no events: alone it is not judged; with the events, it is.
    assertEquals(List.of(), compile(sources(List.of("incremental/upcasters/JsonOnlyUpcasters.java")), List.of(),
        againstClasses));
    List<Diagnostic<? extends JavaFileObject>> withEvents = compile(
        sources(List.of("incremental/upcasters/Ledger.java", "incremental/upcasters/LedgerEvent.java",
            "incremental/upcasters/LedgerUpcasters.java", "incremental/upcasters/JsonOnlyUpcasters.java")),
        List.of(), List.of("-d", work.resolve("all").toString(), "-s", work.resolve("all-generated").toString()));
    assertEquals(1, withEvents.size(), withEvents.toString());
    assertTrue(withEvents.get(0).getMessage(Locale.ROOT)
        .startsWith("[esgen:upcast-ignored] upcaster JsonOnlyUpcasters.euros"), withEvents.get(0).getMessage(Locale.ROOT));
  }

  /**
   * An events root of the user's own in a {@code javax.} package is no JDK type when the aggregate is
   * recompiled alone, as an incremental build does when only the aggregate changed: the root then comes
   * from its class file, and what a full build accepts must not become "a JDK type" there.
   */
  @Test
  void anEventsRootOfTheUsersOwnInAJavaxPackageIsAcceptedWhenTheAggregateIsRecompiledAlone(@TempDir Path work)
      throws IOException {
    JavaFileObject events = JavaFileObjects.forSourceString("javax.shop.CartEvent", """
        package javax.shop;

        import dev.esgen.annotations.DomainEvents;

        @DomainEvents
        public sealed interface CartEvent permits CartEvent.Opened, CartEvent.ItemAdded {
          record Opened(String id) implements CartEvent {}

          record ItemAdded() implements CartEvent {}
        }
        """);
    JavaFileObject cart = JavaFileObjects.forSourceString("javax.shop.Cart", """
        package javax.shop;

        import dev.esgen.annotations.Aggregate;
        import dev.esgen.annotations.AggregateId;

        @Aggregate(name = "cart", events = CartEvent.class)
        public record Cart(@AggregateId String id, int items) {
          static Cart open(CartEvent.Opened e) {
            return new Cart(e.id(), 0);
          }

          Cart apply(CartEvent.ItemAdded e) {
            return new Cart(id, items + 1);
          }
        }
        """);
    Path classes = work.resolve("classes");
    List<Diagnostic<? extends JavaFileObject>> full = compile(List.of(events, cart), List.of(),
        List.of("-d", classes.toString(), "-s", work.resolve("first").toString()));
    assertTrue(full.isEmpty(), full.toString());

    List<Diagnostic<? extends JavaFileObject>> alone = compile(List.of(cart), List.of(),
        List.of("-d", work.resolve("again").toString(), "-cp", classPath(classes),
            "-s", work.resolve("generated").toString()));
    assertTrue(alone.isEmpty(), alone.toString());
  }

  private static List<JavaFileObject> sources(List<String> resources) {
    return resources.stream().map(JavaFileObjects::forResource).toList();
  }

  private static String classPath(Path classes) {
    return classes + File.pathSeparator + System.getProperty("java.class.path");
  }

  /** Compiles with esgen's processor and returns the errors. */
  private static List<Diagnostic<? extends JavaFileObject>> compile(
      List<JavaFileObject> sources, List<String> classNames, List<String> options) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<String> all = new ArrayList<>(options);
    for (int i = 0; i < all.size() - 1; i++) {
      if (all.get(i).equals("-d") || all.get(i).equals("-s")) {
        Files.createDirectories(Path.of(all.get(i + 1)));
      }
    }
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      JavaCompiler.CompilationTask task =
          javac.getTask(null, files, diagnostics, all, classNames.isEmpty() ? null : classNames, sources);
      task.setProcessors(List.of(new EsgenProcessor()));
      task.call();
    }
    return diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).toList();
  }
}
