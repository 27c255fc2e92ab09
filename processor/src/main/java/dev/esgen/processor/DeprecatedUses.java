package dev.esgen.processor;

import dev.esgen.processor.HandlerAnalyzer.Handler;
import dev.esgen.processor.HandlerAnalyzer.Handlers;
import dev.esgen.processor.StoredTypeModel.UpcastModel;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Which deprecation warnings the generated code would raise, so that it suppresses exactly those. It has to
 * name the aggregate, its events, id and column types, and call its handlers, accessors and upcasters,
 * deprecated or not; javac warns about each use of a {@code @Deprecated} one ({@code deprecation}, under
 * {@code -Xlint}) or of one deprecated for removal ({@code removal}, on by default). A generated class
 * carries {@code @SuppressWarnings} only for the categories of what it uses, and nothing when nothing it
 * uses is deprecated.
 */
final class DeprecatedUses {

  /**
   * The warning categories each generated top-level class suppresses, in order, each empty when nothing
   * it uses is deprecated.
   */
  record SuppressedWarnings(List<String> repository, List<String> asyncRepository) {

    SuppressedWarnings {
      repository = List.copyOf(repository);
      asyncRepository = List.copyOf(asyncRepository);
    }
  }

  private final Elements elements;

  DeprecatedUses(Elements elements) {
    this.elements = elements;
  }

  /** What the repository and the asynchronous repository of a checked aggregate suppress. */
  SuppressedWarnings find(TypeElement aggregate, EventHierarchy events, Handlers handlers, IdModel id,
      List<ColumnModel> columns, EvolutionModel evolution) {
    // The asynchronous repository's API: its type arguments and the lookups' parameter types.
    List<Element> api = new ArrayList<>(List.of(aggregate, events.root));
    Element idMember = member(aggregate, id.access());
    api.add(typeOf(idMember));
    for (ColumnModel column : columns) {
      api.add(typeOf(member(aggregate, column.access())));
    }
    List<Element> used = new ArrayList<>(api);
    used.addAll(events.leaves);
    for (Handler handler : Stream.concat(Stream.of(handlers.creator), handlers.handlers.stream()).toList()) {
      used.add(handler.method());
      used.add(handler.event());
    }
    used.add(idMember);
    id.wrapperAccessor().ifPresent(accessor -> {
      TypeElement wrapper = typeOf(idMember);
      used.add(method(wrapper, accessor));
      // the id parsed from its string is built through the canonical constructor
      ElementFilter.constructorsIn(wrapper.getEnclosedElements()).stream()
          .filter(constructor -> constructor.getParameters().size() == 1)
          .forEach(used::add);
    });
    for (ColumnModel column : columns) {
      used.add(member(aggregate, column.access()));
      column.wrapped().ifPresent(wrapped ->
          used.add(method(typeOf(member(aggregate, column.access())), wrapped.accessor())));
    }
    Stream.concat(evolution.current().values().stream(), evolution.retired().stream())
        .flatMap(stored -> stored.upcasts().stream())
        .forEach(upcast -> used.add(upcaster(upcast)));
    return new SuppressedWarnings(warnings(used), warnings(api));
  }

  /** The categories of the deprecated elements among {@code used} and the types enclosing them, in order. */
  private List<String> warnings(List<Element> used) {
    TreeSet<String> warnings = new TreeSet<>();
    for (Element element : used) {
      // A use of a nested type or member names the types around it too: Outer.Inner, Outer.method().
      for (Element e = element; e != null && e.getKind() != ElementKind.PACKAGE; e = e.getEnclosingElement()) {
        if (elements.isDeprecated(e)) {
          warnings.add(forRemoval(e) ? "removal" : "deprecation");
        }
      }
    }
    return List.copyOf(warnings);
  }

  private boolean forRemoval(Element element) {
    return Annotations.find(element, "java.lang.Deprecated")
        .map(deprecated -> (Boolean) Annotations.value(elements, deprecated, "forRemoval").getValue())
        .orElse(false);
  }

  /**
   * The type {@code member} (a field, or an accessor) holds, or null for a primitive: read from the member
   * rather than looked up by name, which would search every module for a type the source declares.
   */
  private static TypeElement typeOf(Element member) {
    if (member == null) {
      return null;
    }
    TypeMirror type = member instanceof ExecutableElement method ? method.getReturnType() : member.asType();
    return type instanceof DeclaredType declared ? (TypeElement) declared.asElement() : null;
  }

  /** The field or no-argument method of {@code type} that {@code access} reads. */
  private static Element member(TypeElement type, PropertyAccess access) {
    if (type == null) {
      return null;
    }
    return type.getEnclosedElements().stream()
        .filter(member -> member.getSimpleName().contentEquals(access.name()))
        .filter(member -> access.isField()
            ? member.getKind() == ElementKind.FIELD
            : member instanceof ExecutableElement method && method.getParameters().isEmpty())
        .findFirst()
        .orElse(null);
  }

  private static Element method(TypeElement type, String name) {
    return member(type, new PropertyAccess(name, false));
  }

  /** The upcaster method the codec calls; its class when it cannot be found again. */
  private Element upcaster(UpcastModel upcast) {
    TypeElement owner = elements.getTypeElement(upcast.owner().canonicalName());
    if (owner == null) {
      return null;
    }
    return ElementFilter.methodsIn(owner.getEnclosedElements()).stream()
        .filter(method -> method.getSimpleName().contentEquals(upcast.method())
            && Annotations.has(method, Annotations.UPCAST))
        .<Element>map(method -> method)
        .findFirst()
        .orElse(owner);
  }
}
