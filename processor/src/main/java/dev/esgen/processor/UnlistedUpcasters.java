package dev.esgen.processor;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reports {@code @Upcast} methods in a class that esgen never reads upcasters from: one that is no event
 * and that no {@code @DomainEvents(upcasters = ...)} lists. Such a method would never be called, and the
 * stored versions it was written for would fail to read at run time instead of at compile time.
 *
 * <p>Upcasters in the aggregate or in a sealed level of its events are reported with the aggregate, by
 * {@link UpcasterAnalyzer}. The rest is decided in the last round: the class that lists an upcasters
 * class may be generated in a later round than the upcasters class, so each round only takes notes, by
 * name, since elements do not outlive their round.
 */
final class UnlistedUpcasters {

  private final Elements elements;
  private final Types types;
  private final ErrorReporter errors;
  /** Classes compiled here that declare {@code @Upcast} methods and are neither events nor aggregates. */
  private final Set<String> holders = new LinkedHashSet<>();
  /** The {@code @DomainEvents} types compiled here, read in the last round, when all they list exists. */
  private final Set<String> roots = new HashSet<>();

  UnlistedUpcasters(Elements elements, Types types, ErrorReporter errors) {
    this.elements = elements;
    this.types = types;
    this.errors = errors;
  }

  /** Notes the round's upcaster classes and {@code @DomainEvents} types. */
  void collect(RoundEnvironment round) {
    TypeElement upcast = elements.getTypeElement(Annotations.UPCAST);
    TypeElement domainEvents = elements.getTypeElement(Annotations.DOMAIN_EVENTS);
    if (upcast == null || domainEvents == null) {
      return;
    }
    for (Element method : round.getElementsAnnotatedWith(upcast)) {
      if (method.getEnclosingElement() instanceof TypeElement holder
          && !Annotations.has(holder, Annotations.AGGREGATE)
          && !Annotations.has(holder, Annotations.DOMAIN_EVENTS)
          && !MisplacedAnnotations.isEvent(types, holder.asType())) {
        holders.add(holder.getQualifiedName().toString());
      }
    }
    for (TypeElement root : ElementFilter.typesIn(round.getElementsAnnotatedWith(domainEvents))) {
      roots.add(root.getQualifiedName().toString());
    }
  }

  /**
   * Reports the upcasters of every noted class that nothing lists, once no round is left to list it.
   * The {@code @DomainEvents} types of each such class's package are read again (one that javac compiles
   * without processing it, from the source path, lists classes too), and so are the roots of the events
   * its upcasters return, wherever they were compiled. A class whose upcasters return JSON, compiled
   * without any {@code @DomainEvents} type (an incremental build recompiling it alone), is not judged:
   * the type that lists it is elsewhere, and the compilation that includes it judges the class.
   */
  void report() {
    if (holders.isEmpty()) {
      // The common case, and a cheap one: finding each noted root again by name would search every module.
      return;
    }
    Set<String> listed = new HashSet<>();
    for (String root : roots) {
      addListed(elements.getTypeElement(root), listed);
    }
    for (String name : holders) {
      TypeElement holder = elements.getTypeElement(name);
      if (holder == null) {
        continue;
      }
      for (TypeElement type : ElementFilter.typesIn(elements.getPackageOf(holder).getEnclosedElements())) {
        addListed(type, listed);
      }
      Set<TypeElement> returnedRoots = rootsOfReturnedEvents(holder);
      returnedRoots.forEach(root -> addListed(root, listed));
      if (listed.contains(name) || (roots.isEmpty() && returnedRoots.isEmpty())) {
        continue;
      }
      for (ExecutableElement method : ElementFilter.methodsIn(holder.getEnclosedElements())) {
        Annotations.find(method, Annotations.UPCAST).ifPresent(mirror -> errors.error(method, mirror,
            Messages.upcastIgnored(AggregateAnalyzer.display(holder) + "." + method.getSimpleName(),
                AggregateAnalyzer.display(holder))));
      }
    }
    holders.clear();
  }

  /** The {@code @DomainEvents} types above the events that {@code holder}'s upcasters return, alone or in a list. */
  private Set<TypeElement> rootsOfReturnedEvents(TypeElement holder) {
    Set<TypeElement> found = new HashSet<>();
    for (ExecutableElement method : ElementFilter.methodsIn(holder.getEnclosedElements())) {
      if (Annotations.has(method, Annotations.UPCAST)) {
        TypeMirror returned = method.getReturnType();
        if (returned instanceof DeclaredType declared && declared.getTypeArguments().size() == 1
            && types.asElement(types.erasure(returned)).equals(elements.getTypeElement(List.class.getName()))) {
          returned = declared.getTypeArguments().get(0);
        }
        if (returned instanceof WildcardType wildcard) {
          returned = wildcard.getExtendsBound();
        }
        if (returned instanceof DeclaredType declared && declared.asElement() instanceof TypeElement element) {
          if (Annotations.has(element, Annotations.DOMAIN_EVENTS)) {
            found.add(element);
          }
          found.addAll(MisplacedAnnotations.rootsAbove(types, returned));
        }
      }
    }
    return found;
  }

  private static void addListed(TypeElement type, Set<String> listed) {
    if (type == null) {
      return;
    }
    Annotations.find(type, Annotations.DOMAIN_EVENTS).ifPresent(mirror ->
        Annotations.upcasterClasses(mirror).forEach(holder -> listed.add(holder.getQualifiedName().toString())));
  }
}
