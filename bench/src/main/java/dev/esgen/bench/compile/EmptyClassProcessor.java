package dev.esgen.bench.compile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * The least a generating processor can do: for every {@code @Aggregate} type, one empty public class
 * {@code <Aggregate>Repository} beside it. The compile-time benchmark runs it as a reference, because
 * generating any file makes javac run two more rounds over every source and compile the new file, whatever
 * the processor itself does: what it costs is a floor no processor that generates code per aggregate goes
 * below.
 */
@SupportedAnnotationTypes(EmptyClassProcessor.AGGREGATE)
public final class EmptyClassProcessor extends AbstractProcessor {

  static final String AGGREGATE = "dev.esgen.annotations.Aggregate";

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    for (TypeElement annotation : annotations) {
      for (Element element : round.getElementsAnnotatedWith(annotation)) {
        write((TypeElement) element);
      }
    }
    return false;
  }

  private void write(TypeElement aggregate) {
    String pkg = processingEnv.getElementUtils().getPackageOf(aggregate).getQualifiedName().toString();
    String name = aggregate.getSimpleName() + "Repository";
    try (Writer out = processingEnv.getFiler().createSourceFile(pkg + "." + name, aggregate).openWriter()) {
      out.write("package " + pkg + ";\n\npublic final class " + name + " {\n  public " + name + "() {}\n}\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
