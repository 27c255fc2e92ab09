package dev.esgen.processor;

import java.util.Optional;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;

/**
 * Which types are the JDK's: those of the {@code java}, {@code javax} and {@code jdk} packages. Nobody
 * compiles them with esgen, their Jackson form is Jackson's, and a user cannot annotate or seal them, so
 * the processor judges them by name rather than by their members.
 *
 * <pre>{@code
 * if (JdkTypes.isJdk(root)) {
 *   return Optional.of("a JDK type");     // cannot be made a sealed events root
 * }
 * }</pre>
 */
final class JdkTypes {

  private JdkTypes() {}

  static boolean isJdk(TypeElement type) {
    return isJdk(type.getQualifiedName().toString());
  }

  /**
   * The class {@code type} extends, unless it is the JDK's ({@code Object}, {@code Record}, ...), whose
   * state Jackson does not write as the domain's.
   */
  static Optional<TypeElement> domainSuperclass(TypeElement type) {
    if (type.getSuperclass() instanceof DeclaredType declared
        && declared.asElement() instanceof TypeElement superclass
        && !isJdk(superclass)) {
      return Optional.of(superclass);
    }
    return Optional.empty();
  }

  /** As {@link #isJdk(TypeElement)}, for a qualified name. */
  static boolean isJdk(String qualifiedName) {
    return qualifiedName.startsWith("java.") || qualifiedName.startsWith("javax.") || qualifiedName.startsWith("jdk.");
  }
}
