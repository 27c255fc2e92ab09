package dev.esgen.processor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reports {@code @AggregateId}, {@code @Indexed} and {@code @Unique} where esgen never reads them: on
 * anything but an instance field or record component of an {@code @Aggregate} type, enum constants
 * included (their target {@code FIELD} admits them). Left alone they would do nothing, and the lookup or
 * constraint they seem to promise would silently not exist. Likewise {@code @EventType} on a type below
 * no sealed type at all (its {@code implements} forgotten), or below sealed types none of which is, or is
 * below, a {@code @DomainEvents} root (the root's annotation forgotten): an aggregate's events must have
 * such a root, so its stored name would never be used. Where an aggregate of the round names one of those
 * sealed types as its events, the aggregate's own error says so instead.
 */
final class MisplacedAnnotations {

  private static final List<String> COMPONENT_ANNOTATIONS =
      List.of(Annotations.AGGREGATE_ID, Annotations.INDEXED, Annotations.UNIQUE);

  private final Elements elements;
  private final Types types;
  private final ErrorReporter errors;
  private final UnresolvedAnnotations unresolved;

  MisplacedAnnotations(Elements elements, Types types, ErrorReporter errors, UnresolvedAnnotations unresolved) {
    this.elements = elements;
    this.types = types;
    this.errors = errors;
    this.unresolved = unresolved;
  }

  void check(RoundEnvironment round) {
    checkEventTypes(round);
    Map<String, TypeElement> annotations = new LinkedHashMap<>();
    for (String name : COMPONENT_ANNOTATIONS) {
      TypeElement annotation = elements.getTypeElement(name);
      if (annotation != null) {
        annotations.put(name, annotation);
      }
    }
    if (annotations.isEmpty()) {
      return;
    }
    // One scan of the round's elements for all of them: each scan visits every member of every type.
    for (Element element : round.getElementsAnnotatedWithAny(annotations.values().toArray(TypeElement[]::new))) {
      annotations.forEach((name, annotation) -> Annotations.find(element, name).ifPresent(mirror -> {
        String simpleName = annotation.getSimpleName().toString();
        switch (element.getKind()) {
          case FIELD -> checkField(element, mirror, simpleName);
          case ENUM_CONSTANT -> errors.error(element, mirror, Messages.annotationOnEnumConstant(
              simpleName, element.getSimpleName().toString(),
              AggregateAnalyzer.display((TypeElement) element.getEnclosingElement())));
          case PARAMETER -> checkParameter(element, mirror, simpleName);
          // A record component's annotation is also on its field, where it is checked and reported: javac
          // (17) places no diagnostic on a record component.
          default -> { }
        }
      }));
    }
  }

  private void checkEventTypes(RoundEnvironment round) {
    TypeElement eventType = elements.getTypeElement(Annotations.EVENT_TYPE);
    if (eventType == null) {
      return;
    }
    Set<TypeElement> namedAsEvents = null;
    for (TypeElement type : ElementFilter.typesIn(round.getElementsAnnotatedWith(eventType))) {
      if (type.getModifiers().contains(Modifier.SEALED)) {
        continue; // reported with the aggregate whose events it is in: @EventType belongs on concrete events
      }
      Set<TypeElement> above = new LinkedHashSet<>();
      if (addSupertypes(type, above)) {
        continue; // a supertype javac could not resolve is javac's to report
      }
      Set<TypeElement> sealedAbove = new LinkedHashSet<>();
      above.stream().filter(t -> t.getModifiers().contains(Modifier.SEALED)).forEach(sealedAbove::add);
      if (sealedAbove.isEmpty()) {
        Annotations.find(type, Annotations.EVENT_TYPE).ifPresent(mirror -> errors.error(type, mirror,
            Messages.eventTypeOutsideEvents(AggregateAnalyzer.display(type))));
        continue;
      }
      if (above.stream().anyMatch(t -> Annotations.has(t, Annotations.DOMAIN_EVENTS))
          || sealedAbove.stream().anyMatch(this::hasUnresolvedAnnotations)) {
        continue;
      }
      if (namedAsEvents == null) {
        namedAsEvents = namedAsEvents(round);
      }
      if (sealedAbove.stream().noneMatch(namedAsEvents::contains)) {
        TypeElement top = topmost(sealedAbove);
        Annotations.find(type, Annotations.EVENT_TYPE).ifPresent(mirror -> errors.error(type, mirror,
            Messages.eventTypeBelowNoRoot(AggregateAnalyzer.display(type), AggregateAnalyzer.display(top))));
      }
    }
  }

  /**
   * Adds the types {@code type} extends or implements, directly or not, to {@code above}; true when one of
   * them could not be resolved (a root whose import is missing, or that another processor has not
   * generated yet), which is not judged.
   */
  private static boolean addSupertypes(TypeElement type, Set<TypeElement> above) {
    List<TypeMirror> supertypes = new ArrayList<>(type.getInterfaces());
    supertypes.add(type.getSuperclass());
    boolean unresolved = false;
    for (TypeMirror supertype : supertypes) {
      if (supertype.getKind() == TypeKind.ERROR) {
        unresolved = true;
      } else if (supertype instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element
          && above.add(element)) {
        unresolved |= addSupertypes(element, above);
      }
    }
    return unresolved;
  }

  /** The sealed type in {@code sealed} that none of the others is above: the one meant as the root. */
  private TypeElement topmost(Set<TypeElement> sealed) {
    for (TypeElement candidate : sealed) {
      if (sealed.stream().noneMatch(other -> other != candidate
          && types.isSubtype(types.erasure(candidate.asType()), types.erasure(other.asType())))) {
        return candidate;
      }
    }
    return sealed.iterator().next();
  }

  /**
   * The types this round's aggregates name as their events: one without {@code @DomainEvents} is reported
   * with the aggregate, once, rather than again on each of its events.
   */
  private Set<TypeElement> namedAsEvents(RoundEnvironment round) {
    Set<TypeElement> named = new HashSet<>();
    TypeElement aggregate = elements.getTypeElement(Annotations.AGGREGATE);
    if (aggregate == null) {
      return named;
    }
    for (Element element : round.getElementsAnnotatedWith(aggregate)) {
      Annotations.find(element, Annotations.AGGREGATE).ifPresent(mirror -> {
        AnnotationValue value = Annotations.explicitValue(mirror, "events");
        if (value != null && value.getValue() instanceof DeclaredType type
            && type.asElement() instanceof TypeElement events) {
          named.add(events);
        }
      });
    }
    return named;
  }

  private void checkField(Element field, AnnotationMirror mirror, String annotation) {
    TypeElement owner = (TypeElement) field.getEnclosingElement();
    String where = (owner.getKind() == ElementKind.RECORD ? "component " : "field ") + field.getSimpleName() + " of "
        + AggregateAnalyzer.display(owner);
    if (!Annotations.has(owner, Annotations.AGGREGATE)) {
      if (hasUnresolvedAnnotations(owner)) {
        return; // maybe @Aggregate without its import: javac's error says so, and nothing here is sure
      }
      errors.error(field, mirror, Messages.annotationOutsideAggregate(
          annotation, where, AggregateAnalyzer.display(owner), isEvent(types, owner.asType())));
    } else if (field.getModifiers().contains(Modifier.STATIC)) {
      errors.error(field, mirror, Messages.annotationOnStaticField(annotation, where));
    }
  }

  private boolean hasUnresolvedAnnotations(TypeElement type) {
    Set<String> missing = new HashSet<>();
    unresolved.addIn(type, missing);
    return !missing.isEmpty();
  }

  /** Whether {@code type} is below a {@code @DomainEvents} root. */
  static boolean isEvent(Types types, TypeMirror type) {
    return !rootsAbove(types, type).isEmpty();
  }

  /** The {@code @DomainEvents} roots {@code type} is below, directly or not ({@code type} itself left out). */
  static Set<TypeElement> rootsAbove(Types types, TypeMirror type) {
    Set<TypeElement> roots = new LinkedHashSet<>();
    addRootsAbove(types, type, roots, new HashSet<>());
    return roots;
  }

  private static void addRootsAbove(Types types, TypeMirror type, Set<TypeElement> roots, Set<TypeElement> seen) {
    for (TypeMirror supertype : types.directSupertypes(type)) {
      if (types.asElement(supertype) instanceof TypeElement element && seen.add(element)) {
        if (Annotations.has(element, Annotations.DOMAIN_EVENTS)) {
          roots.add(element);
        }
        addRootsAbove(types, supertype, roots, seen);
      }
    }
  }

  /**
   * A record's canonical constructor parameters carry its components' annotations, which javac copies
   * there: those are read through the field. Any other parameter's annotation is never read.
   */
  private void checkParameter(Element parameter, AnnotationMirror mirror, String annotation) {
    String qualifiedName = ((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().toString();
    ExecutableElement executable = (ExecutableElement) parameter.getEnclosingElement();
    TypeElement owner = (TypeElement) executable.getEnclosingElement();
    if (owner.getKind() == ElementKind.RECORD && executable.getKind() == ElementKind.CONSTRUCTOR) {
      for (RecordComponentElement component : owner.getRecordComponents()) {
        if (component.getSimpleName().contentEquals(parameter.getSimpleName())
            && Annotations.has(component, qualifiedName)) {
          return;
        }
      }
    }
    String method = executable.getKind() == ElementKind.CONSTRUCTOR
        ? "a constructor of " + AggregateAnalyzer.display(owner)
        : executable.getSimpleName() + "() of " + AggregateAnalyzer.display(owner);
    errors.error(parameter, mirror, Messages.annotationOnParameter(annotation, parameter.getSimpleName().toString(), method));
  }
}
