package dev.esgen.processor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Types;

/**
 * The shape of an aggregate's state as its JSON takes it, written for one fingerprint: the aggregate's
 * components (or a class's instance fields, inherited ones included) with their full types and Jackson
 * annotations, and recursively those of the records, classes, enums and sealed types they use, except the
 * JDK's, each spelled out once, with the Jackson annotations on the types themselves and on enum
 * constants, and the domain's types behind wildcards.
 */
final class StateShape {

  private final Types types;
  private final TypeElement aggregate;
  private final StringBuilder out;
  /** The qualified names of the domain's types spelled out so far. */
  private final Set<String> spelledOut = new HashSet<>();

  private StateShape(Types types, TypeElement aggregate, StringBuilder out) {
    this.types = types;
    this.aggregate = aggregate;
    this.out = out;
  }

  /** Appends the shape of {@code aggregate}'s state to {@code out}; the shape tells which types it spelled out. */
  static StateShape write(Types types, TypeElement aggregate, StringBuilder out) {
    StateShape shape = new StateShape(types, aggregate, out);
    shape.write(aggregate.asType());
    // The fields a class aggregate inherits from the domain's own classes come after the shape, and nothing
    // for an aggregate without such a superclass, so that the fingerprints of all other aggregates stay as
    // they were: as members of the aggregate (T payload of Base<String> as a String), each level after a
    // line break.
    shape.inherited(aggregate, (DeclaredType) aggregate.asType(), "\n");
    return shape;
  }

  /**
   * The qualified names of the domain's types the events the handlers take hold, at any depth: those a
   * handler may use without naming them ({@code e.pack().ordinal()}).
   */
  static Set<String> typesHeldByEvents(Types types, TypeElement aggregate, List<ExecutableElement> handlers) {
    // Spelling out an event's shape visits each type of the domain's it holds once; the text is not needed.
    StateShape events = new StateShape(types, aggregate, new StringBuilder());
    for (ExecutableElement handler : handlers) {
      for (VariableElement parameter : handler.getParameters()) {
        events.write(parameter.asType());
      }
    }
    return events.spelledOut;
  }

  /** Whether the shape spells out the domain's type {@code qualifiedName}, an enum's constants in order among it. */
  boolean spellsOut(String qualifiedName) {
    return spelledOut.contains(qualifiedName);
  }

  /**
   * Appends {@code type} as its JSON takes shape: each of the domain's types spelled out once, with what
   * Jackson reads of it. The aggregate's inherited fields are appended apart, by {@link #write(Types,
   * TypeElement, StringBuilder)}.
   */
  private void write(TypeMirror type) {
    if (type.getKind() == TypeKind.ARRAY) {
      write(((ArrayType) type).getComponentType());
      out.append("[]");
      return;
    }
    if (type instanceof WildcardType wildcard) {
      if (!holdsDomainType(wildcard)) {
        out.append(type);
        return;
      }
      // A bound of the domain's is spelled out as any other type: List<? extends Line> holds Lines.
      out.append('?');
      if (wildcard.getExtendsBound() != null) {
        out.append(" extends ");
        write(wildcard.getExtendsBound());
      }
      if (wildcard.getSuperBound() != null) {
        out.append(" super ");
        write(wildcard.getSuperBound());
      }
      return;
    }
    if (!(type instanceof DeclaredType declared) || type.getKind() != TypeKind.DECLARED) {
      out.append(type);
      return;
    }
    TypeElement element = (TypeElement) declared.asElement();
    String name = element.getQualifiedName().toString();
    out.append(name);
    if (!declared.getTypeArguments().isEmpty()) {
      out.append('<');
      for (TypeMirror argument : declared.getTypeArguments()) {
        write(argument);
        out.append(',');
      }
      out.append('>');
    }
    // The JDK's types keep their JSON form; each of the domain's types is spelled out once.
    if (JdkTypes.isJdk(name) || !spelledOut.add(name)) {
      return;
    }
    // Written only when there are any, as everything added to the scheme since: unchanged types keep their
    // fingerprints.
    jacksonAnnotations(List.of(element)).forEach(annotation -> out.append(annotation).append(' '));
    out.append('{');
    if (element.getKind() == ElementKind.ENUM) {
      for (Element constant : element.getEnclosedElements()) {
        if (constant.getKind() == ElementKind.ENUM_CONSTANT) {
          jacksonAnnotations(List.of(constant)).forEach(annotation -> out.append(annotation).append(' '));
          out.append(constant.getSimpleName()).append(',');
        }
      }
    } else if (element.getKind() == ElementKind.RECORD) {
      for (RecordComponentElement component : element.getRecordComponents()) {
        // An annotation that cannot sit on a record component (Jackson's) is found on the component's field.
        List<Element> carriers = new ArrayList<>(List.of(component));
        ElementFilter.fieldsIn(element.getEnclosedElements()).stream()
            .filter(field -> field.getSimpleName().equals(component.getSimpleName()))
            .forEach(carriers::add);
        member(carriers, component.asType());
      }
    } else {
      for (VariableElement field : ElementFilter.fieldsIn(element.getEnclosedElements())) {
        if (!field.getModifiers().contains(Modifier.STATIC) && !field.getModifiers().contains(Modifier.TRANSIENT)) {
          member(List.of(field), field.asType());
        }
      }
      if (!element.equals(aggregate)) {
        inherited(element, declared, null);
      }
      for (TypeMirror permitted : element.getPermittedSubclasses()) {
        out.append("permits ");
        write(permitted);
        out.append(';');
      }
    }
    out.append('}');
  }

  /** Whether {@code type} is, holds or is bounded by a type of the domain's own (not the JDK's). */
  private static boolean holdsDomainType(TypeMirror type) {
    if (type instanceof WildcardType wildcard) {
      return (wildcard.getExtendsBound() != null && holdsDomainType(wildcard.getExtendsBound()))
          || (wildcard.getSuperBound() != null && holdsDomainType(wildcard.getSuperBound()));
    }
    if (type instanceof ArrayType array) {
      return holdsDomainType(array.getComponentType());
    }
    if (type instanceof DeclaredType declared && type.getKind() == TypeKind.DECLARED) {
      return !JdkTypes.isJdk(((TypeElement) declared.asElement()).getQualifiedName().toString())
          || declared.getTypeArguments().stream().anyMatch(StateShape::holdsDomainType);
    }
    return false;
  }

  /**
   * The fields {@code type} (as {@code self}) inherits from the domain's own classes, which Jackson writes
   * as its own: for the aggregate each level after a line break, as always; for a class in its state
   * (a null {@code separator}) only the levels that have fields, so that a class extending an empty one
   * keeps its fingerprint.
   */
  private void inherited(TypeElement type, DeclaredType self, String separator) {
    for (TypeElement level = JdkTypes.domainSuperclass(type).orElse(null); level != null;
        level = JdkTypes.domainSuperclass(level).orElse(null)) {
      List<VariableElement> fields = ElementFilter.fieldsIn(level.getEnclosedElements()).stream()
          .filter(field -> !field.getModifiers().contains(Modifier.STATIC)
              && !field.getModifiers().contains(Modifier.TRANSIENT))
          .toList();
      if (separator == null && fields.isEmpty()) {
        continue;
      }
      out.append(separator == null ? " " : separator).append("inherits ").append(level.getQualifiedName()).append(" {");
      for (VariableElement field : fields) {
        member(List.of(field), types.asMemberOf(self, field));
      }
      out.append('}');
    }
  }

  private void member(List<? extends Element> carriers, TypeMirror type) {
    jacksonAnnotations(carriers).forEach(annotation -> out.append(annotation).append(' '));
    out.append(carriers.get(0).getSimpleName()).append(':');
    write(type);
    out.append(';');
  }

  /** The Jackson annotations on {@code carriers}, each once: they change the JSON; esgen's and others do not. */
  private static Set<String> jacksonAnnotations(List<? extends Element> carriers) {
    Set<String> annotations = new LinkedHashSet<>();
    for (Element carrier : carriers) {
      for (AnnotationMirror annotation : carrier.getAnnotationMirrors()) {
        if (annotation.getAnnotationType().toString().startsWith("com.fasterxml.jackson.")) {
          annotations.add(annotation.toString());
        }
      }
    }
    return annotations;
  }
}
