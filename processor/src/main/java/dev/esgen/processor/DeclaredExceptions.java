package dev.esgen.processor;

import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The exceptions a user's method declares that the generated code calling it could not pass on: handlers
 * and creating methods, id and column getters (their callers declare nothing), and upcasters (which may
 * throw {@code IOException}, as the codec does).
 *
 * <pre>{@code
 * DeclaredExceptions.firstChecked(handler, elements, types)
 *     .ifPresent(thrown -> errors.error(handler, Messages.handlerThrows(signature, thrown)));
 * }</pre>
 */
final class DeclaredExceptions {

  private static final List<String> UNCHECKED = List.of("java.lang.RuntimeException", "java.lang.Error");

  private DeclaredExceptions() {}

  /** The first checked exception {@code method} declares. */
  static Optional<String> firstChecked(ExecutableElement method, Elements elements, Types types) {
    return firstBeyond(method, UNCHECKED, elements, types);
  }

  /**
   * The first exception {@code method} declares that is not one of {@code allowed} (qualified names) or a
   * subtype of one.
   */
  static Optional<String> firstBeyond(ExecutableElement method, List<String> allowed, Elements elements, Types types) {
    for (TypeMirror thrown : method.getThrownTypes()) {
      if (allowed.stream().noneMatch(name -> types.isSubtype(thrown, elements.getTypeElement(name).asType()))) {
        return Optional.of(thrown.toString());
      }
    }
    return Optional.empty();
  }
}
