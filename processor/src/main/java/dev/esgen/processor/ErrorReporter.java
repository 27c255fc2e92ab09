package dev.esgen.processor;

import java.util.HashSet;
import java.util.Set;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Reports compile errors on the exact element (and annotation value) at fault, and counts them so that
 * an aggregate with any error is abandoned after all of its errors were reported.
 *
 * <p>An element read from a class file (an event of a library) has no source position, and javac would
 * print its error without a file or line. While an aggregate is checked, such errors land on the
 * aggregate's {@code @Aggregate(events = ...)}, through which every such element was reached.
 *
 * <p>A mistake in events that two aggregates share is found while checking each: it is printed once, and
 * counted for both, so that both are abandoned.
 */
final class ErrorReporter {

  private final Messager messager;
  private final CompiledTypes compiledTypes;
  private int errorCount;
  private Site classFileSite;
  private final Set<Printed> printed = new HashSet<>();

  /** Where an error goes: an element, and optionally an annotation on it and a value of that annotation. */
  private record Site(Element element, AnnotationMirror annotation, AnnotationValue value) {}

  private record Printed(Site site, String message) {}

  public ErrorReporter(Messager messager, CompiledTypes compiledTypes) {
    this.messager = messager;
    this.compiledTypes = compiledTypes;
  }

  /** Until {@link #clearClassFileSite}, errors on elements of class files are reported here instead. */
  public void setClassFileSite(Element element, AnnotationMirror annotation, AnnotationValue value) {
    classFileSite = new Site(element, annotation, value);
  }

  public void clearClassFileSite() {
    classFileSite = null;
  }

  public void error(Element element, String message) {
    print(new Site(element, null, null), message);
  }

  public void error(Element element, AnnotationMirror annotation, String message) {
    print(new Site(element, annotation, null), message);
  }

  public void error(Element element, AnnotationMirror annotation, AnnotationValue value, String message) {
    print(new Site(element, annotation, value), message);
  }

  private void print(Site site, String message) {
    Site at = classFileSite != null && !compiledTypes.declares(site.element()) ? classFileSite : site;
    errorCount++;
    if (!printed.add(new Printed(at, message))) {
      return;
    }
    if (at.annotation() == null) {
      messager.printMessage(Diagnostic.Kind.ERROR, message, at.element());
    } else if (at.value() == null) {
      messager.printMessage(Diagnostic.Kind.ERROR, message, at.element(), at.annotation());
    } else {
      messager.printMessage(Diagnostic.Kind.ERROR, message, at.element(), at.annotation(), at.value());
    }
  }

  /** How many errors were reported so far; compare before and after checking one aggregate. */
  public int errorCount() {
    return errorCount;
  }
}
