package dev.esgen.processor;

import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Reports compile errors on the exact element (and annotation value) at fault, and counts them so that
 * an aggregate with any error is abandoned after all of its errors were reported.
 */
final class ErrorReporter {

  private final Messager messager;
  private int errorCount;

  public ErrorReporter(Messager messager) {
    this.messager = messager;
  }

  public void error(Element element, String message) {
    messager.printMessage(Diagnostic.Kind.ERROR, message, element);
    errorCount++;
  }

  public void error(Element element, AnnotationMirror annotation, String message) {
    if (annotation == null) {
      error(element, message);
      return;
    }
    messager.printMessage(Diagnostic.Kind.ERROR, message, element, annotation);
    errorCount++;
  }

  public void error(Element element, AnnotationMirror annotation, AnnotationValue value, String message) {
    if (value == null) {
      error(element, annotation, message);
      return;
    }
    messager.printMessage(Diagnostic.Kind.ERROR, message, element, annotation, value);
    errorCount++;
  }

  /** How many errors were reported so far; compare before and after checking one aggregate. */
  public int errorCount() {
    return errorCount;
  }
}
