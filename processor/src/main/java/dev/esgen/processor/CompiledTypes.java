package dev.esgen.processor;

import java.util.HashSet;
import java.util.Set;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * The top-level types this compilation processes, collected from every round's root elements: the
 * user's sources (and, in an incremental build, the annotated classes the build tool hands back for
 * processing), as opposed to types read from libraries on the class path.
 *
 * <p>Two decisions depend on it. javac checks a sealed hierarchy it compiles, so esgen leaves an invalid
 * one to javac's error; and esgen judges only the JSON shape of types the user can change, because a
 * library type may come with a Jackson module that esgen cannot see.
 */
final class CompiledTypes {

  private final Set<String> names = new HashSet<>();

  void addRoots(RoundEnvironment round) {
    for (Element root : round.getRootElements()) {
      if (root instanceof TypeElement type) {
        names.add(type.getQualifiedName().toString());
      }
    }
  }

  /** Whether a top-level type of this qualified name is compiled in this compilation. */
  boolean containsName(String qualifiedName) {
    return names.contains(qualifiedName);
  }

  /** Whether {@code type}, or the top-level type it is nested in, is compiled in this compilation. */
  boolean contains(TypeElement type) {
    Element outermost = type;
    while (outermost.getEnclosingElement() instanceof TypeElement enclosing) {
      outermost = enclosing;
    }
    return names.contains(((TypeElement) outermost).getQualifiedName().toString());
  }

  /**
   * Whether {@code element} (a type, or a member or parameter of one) is declared in a type compiled in
   * this compilation, where it has a source position; true for a package or module, which is in no type.
   */
  boolean declares(Element element) {
    Element e = element;
    while (e != null && !(e instanceof TypeElement)) {
      e = e.getEnclosingElement();
    }
    return e == null || contains((TypeElement) e);
  }
}
