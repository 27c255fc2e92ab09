package dev.esgen.processor;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Elements;

/**
 * Finds annotations by their qualified name, so that annotations the processor does not depend on
 * (Jackson's {@code @JsonCreator}) are recognised the same way as esgen's own.
 */
final class Annotations {

  public static final String AGGREGATE = "dev.esgen.annotations.Aggregate";
  public static final String DOMAIN_EVENTS = "dev.esgen.annotations.DomainEvents";
  public static final String UPCAST = "dev.esgen.annotations.Upcast";
  public static final String EVENT_TYPE = "dev.esgen.annotations.EventType";
  public static final String AGGREGATE_ID = "dev.esgen.annotations.AggregateId";
  public static final String INDEXED = "dev.esgen.annotations.Indexed";
  public static final String UNIQUE = "dev.esgen.annotations.Unique";
  public static final String JSON_CREATOR = "com.fasterxml.jackson.annotation.JsonCreator";
  public static final String JSON_PROPERTY = "com.fasterxml.jackson.annotation.JsonProperty";
  public static final String JSON_IGNORE = "com.fasterxml.jackson.annotation.JsonIgnore";
  public static final String JSON_VALUE = "com.fasterxml.jackson.annotation.JsonValue";

  private Annotations() {}

  public static Optional<AnnotationMirror> find(Element element, String qualifiedName) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      TypeElement annotationType = (TypeElement) mirror.getAnnotationType().asElement();
      if (annotationType.getQualifiedName().contentEquals(qualifiedName)) {
        return Optional.of(mirror);
      }
    }
    return Optional.empty();
  }

  public static boolean has(Element element, String qualifiedName) {
    return find(element, qualifiedName).isPresent();
  }

  /** The value written in source for {@code name}, or null when the default applies. */
  public static AnnotationValue explicitValue(AnnotationMirror mirror, String name) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        mirror.getElementValues().entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals(name)) {
        return entry.getValue();
      }
    }
    return null;
  }

  /**
   * The classes {@code domainEvents} (a {@code @DomainEvents}) lists in {@code upcasters} that javac
   * resolved, each once, in the order written; one it could not resolve is javac's own error, or a type
   * another processor has yet to generate.
   */
  public static Set<TypeElement> upcasterClasses(AnnotationMirror domainEvents) {
    AnnotationValue upcasters = explicitValue(domainEvents, "upcasters");
    Set<TypeElement> classes = new LinkedHashSet<>();
    if (upcasters != null && upcasters.getValue() instanceof List<?> listed) {
      for (Object element : listed) {
        if (element instanceof AnnotationValue value && value.getValue() instanceof DeclaredType type
            && type.getKind() == TypeKind.DECLARED) {
          classes.add((TypeElement) type.asElement());
        }
      }
    }
    return classes;
  }

  /** The value for {@code name}, written or defaulted. */
  public static AnnotationValue value(Elements elements, AnnotationMirror mirror, String name) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        elements.getElementValuesWithDefaults(mirror).entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals(name)) {
        return entry.getValue();
      }
    }
    throw new IllegalArgumentException("@" + mirror.getAnnotationType() + " has no member " + name);
  }
}
