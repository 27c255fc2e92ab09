package dev.esgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** How upcasters meet the rest of a build: classes other processors generate. */
class EvolutionGenerationTest {

  private static final String UPCASTERS = """
      package fixture;

      import com.fasterxml.jackson.databind.node.ObjectNode;
      import dev.esgen.annotations.Upcast;

      final class PurseUpcasters {
        @Upcast(type = "purse-opened", from = 1)
        static ObjectNode idWasNumber(ObjectNode v1) {
          return v1.put("id", "P" + v1.get("number").asInt());
        }
      }
      """;

  @Test
  void anUpcastersClassAnotherProcessorGeneratesIsWaitedFor() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor(), new Generating("fixture.PurseUpcasters", UPCASTERS))
        .compile(JavaFileObjects.forResource("evolution/deferred/Purse.java"));
    assertThat(compilation).succeeded();
    assertThat(compilation).generatedSourceFile("fixture.PurseRepository").contentsAsUtf8String()
        .contains("json = PurseUpcasters.idWasNumber(json);");
  }

  @Test
  void anUpcastersClassThatNeverAppearsIsReportedOnTheAggregate() {
    JavaFileObject source = JavaFileObjects.forResource("evolution/deferred/Purse.java");
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unresolved-type] esgen did not generate code for Purse because the upcasters of @DomainEvents")
        .inFile(source)
        .onLineContaining("record Purse(");
  }

  private static final String VERSIONS = """
      package fixture;

      final class TillVersions {
        static final int FIRST = 1;
        static final String RETIRED = "till-reopened";
      }
      """;

  @Test
  void upcastValuesWaitForConstantsAnotherProcessorGenerates() {
    Compilation compilation = javac()
        .withProcessors(new EsgenProcessor(), new Generating("fixture.TillVersions", VERSIONS))
        .compile(JavaFileObjects.forResource("evolution/deferred/Till.java"));
    assertThat(compilation).succeeded();
    assertThat(compilation).generatedSourceFile("fixture.TillRepository").contentsAsUtf8String()
        .contains("json = TillOpened.idWasNumber(json);");
    assertThat(compilation).generatedSourceFile("fixture.TillRepository").contentsAsUtf8String()
        .contains("case \"till-reopened\":");
  }

  @Test
  void upcastValuesThatNeverResolveAreReportedOnTheAggregate() {
    JavaFileObject source = JavaFileObjects.forResource("evolution/deferred/Till.java");
    Compilation compilation = javac().withProcessors(new EsgenProcessor()).compile(source);
    assertThat(compilation)
        .hadErrorContaining("[esgen:unresolved-type] esgen did not generate code for Till because the type of"
            + " @Upcast, the from of @Upcast could not be resolved")
        .inFile(source)
        .onLineContaining("record Till(");
    for (Diagnostic<?> error : compilation.errors()) {
      assertFalse(error.getMessage(null).contains("[esgen:internal-error]"), error.getMessage(null));
    }
  }

  /** Stands in for another annotation processor: writes one source file in the first round. */
  private static final class Generating extends AbstractProcessor {
    private final String type;
    private final String source;
    private boolean written;

    Generating(String type, String source) {
      this.type = type;
      this.source = source;
    }

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
        try (Writer writer = processingEnv.getFiler().createSourceFile(type).openWriter()) {
          writer.write(source);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return false;
    }
  }
}
