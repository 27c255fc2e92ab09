package dev.esgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** What the processor writes for a valid domain, and how it waits for types other processors generate. */
class GenerationTest {

  private static final List<JavaFileObject> BANK =
      List.of(
          JavaFileObjects.forResource("valid/AccountEvent.java"),
          JavaFileObjects.forResource("valid/AccountOpened.java"),
          JavaFileObjects.forResource("valid/MoneyDeposited.java"),
          JavaFileObjects.forResource("valid/AccountClosed.java"),
          JavaFileObjects.forResource("valid/AccountId.java"),
          JavaFileObjects.forResource("valid/BankAccount.java"));

  /**
   * {@code -processing} is left out as in the build: esgen leaves its annotations unclaimed so that other
   * processors can read them too, which that lint category alone reports.
   */
  @Test
  void generatedSourcesCompileWithoutAnyWarning() {
    Compilation compilation =
        javac().withProcessors(new EsgenProcessor()).withOptions("-Xlint:all,-processing", "-Werror").compile(BANK);
    assertThat(compilation).succeededWithoutWarnings();
    for (String suffix : List.of("Keys", "EventCodec", "SnapshotCodec", "Replay", "IndexColumns", "Repository")) {
      assertThat(compilation)
          .generatedSourceFile("fixture.BankAccount" + suffix)
          .contentsAsUtf8String()
          .contains("@Generated(\"dev.esgen.processor.EsgenProcessor\")");
    }
  }

  /**
   * The one golden file, compared as text: esgen controls all of the formatting, and the generated code
   * is what users read in a debugger. (compile-testing's tree comparison needs javac internals that
   * JDK 17+ does not export.)
   */
  @Test
  void replayMatchesTheGoldenFile() throws IOException {
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(BANK);
    String golden;
    try (InputStream in = GenerationTest.class.getResourceAsStream("/golden/BankAccountReplay.java")) {
      golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(compilation)
        .generatedSourceFile("fixture.BankAccountReplay")
        .contentsAsUtf8String()
        .isEqualTo(golden);
  }

  @Test
  void anAggregateWaitsForATypeAnotherProcessorGenerates() {
    Compilation compilation =
        javac()
            .withProcessors(new EsgenProcessor(), new CurrencyGenerator())
            .compile(JavaFileObjects.forResource("deferred/Wallet.java"));
    // Only an enum (or another supported type) passes the column-type check: the deferred type was seen.
    assertThat(compilation).succeeded();
    assertThat(compilation)
        .generatedSourceFile("fixture.WalletIndexColumns")
        .contentsAsUtf8String()
        .contains("return currency == null ? null : IndexValues.of(currency);");
  }

  @Test
  void aTypeThatNeverAppearsIsReportedOnTheAggregate() {
    JavaFileObject source = JavaFileObjects.forResource("deferred/Wallet.java");
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unresolved-type] esgen did not generate code for Wallet because Currency")
        .inFile(source)
        .onLineContaining("record Wallet(");
  }

  /** Stands in for another annotation processor: writes {@code fixture.Currency} in the first round. */
  private static final class CurrencyGenerator extends AbstractProcessor {
    private boolean written;

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      if (!written) {
        written = true;
        try (Writer writer = processingEnv.getFiler().createSourceFile("fixture.Currency").openWriter()) {
          writer.write("package fixture;\n\npublic enum Currency { EUR, USD }\n");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return false;
    }
  }
}
