package dev.esgen.processor;

import static dev.esgen.processor.AggregateAnalyzer.display;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Walks an aggregate's sealed event hierarchy, checks each event type on the way (enumerable, accessible
 * to the generated code, readable by Jackson), and gives each concrete event its stored name.
 */
final class EventAnalyzer {

  private final Elements elements;
  private final Types types;
  private final ErrorReporter errors;
  private final JacksonVisibility jackson;
  private final CompiledTypes compiledTypes;

  EventAnalyzer(
      Elements elements, Types types, ErrorReporter errors, JacksonVisibility jackson, CompiledTypes compiledTypes) {
    this.elements = elements;
    this.types = types;
    this.errors = errors;
    this.jackson = jackson;
    this.compiledTypes = compiledTypes;
  }

  /**
   * Whether javac rejects {@code permitted} in the permits clause of {@code sealed} by itself: a sealed
   * type compiled here permits a type that does not extend it directly, or a permitted type compiled here
   * is a class or interface that declares none of {@code final}, {@code sealed} and {@code non-sealed}.
   * javac reports these only after annotation processing, and only if no processor reported an error
   * (nor left a type missing that the user's code refers to); so esgen leaves such a type out of the
   * hierarchy without a word and generates code for the rest, which javac can then compile up to its
   * own error.
   */
  private boolean javacRejects(TypeElement sealed, TypeElement permitted) {
    return (compiledTypes.contains(sealed) && !extendsDirectly(permitted, sealed))
        || (compiledTypes.contains(permitted) && lacksSealingModifier(permitted));
  }

  private boolean extendsDirectly(TypeElement subtype, TypeElement supertype) {
    TypeMirror erasure = types.erasure(supertype.asType());
    return types.directSupertypes(subtype.asType()).stream()
        .anyMatch(direct -> types.isSameType(types.erasure(direct), erasure));
  }

  private static boolean lacksSealingModifier(TypeElement type) {
    Set<Modifier> modifiers = type.getModifiers();
    return (type.getKind() == ElementKind.CLASS || type.getKind() == ElementKind.INTERFACE)
        && !modifiers.contains(Modifier.FINAL)
        && !modifiers.contains(Modifier.SEALED)
        && !modifiers.contains(Modifier.NON_SEALED);
  }

  EventHierarchy walk(TypeElement root, PackageElement generatedPackage) {
    EventHierarchy hierarchy = new EventHierarchy(root);
    hierarchy.sealedLevels.add(root);
    checkNotInstantiable(root);
    collect(root, hierarchy, generatedPackage);
    checkVisible(root, generatedPackage, false);
    for (TypeElement level : hierarchy.sealedLevels) {
      Optional<AnnotationMirror> eventType = Annotations.find(level, Annotations.EVENT_TYPE);
      if (eventType.isPresent()) {
        List<String> leaves = hierarchy.leavesUnder.getOrDefault(level, Set.of()).stream()
            .map(AggregateAnalyzer::display)
            .toList();
        errors.error(level, eventType.get(), Messages.eventTypeOnSealed(display(level), leaves));
      }
    }
    return hierarchy;
  }

  private Set<TypeElement> collect(TypeElement sealed, EventHierarchy hierarchy, PackageElement generatedPackage) {
    Set<TypeElement> under = new LinkedHashSet<>();
    for (TypeMirror permittedType : sealed.getPermittedSubclasses()) {
      TypeElement permitted = (TypeElement) types.asElement(permittedType);
      Set<TypeElement> known = hierarchy.leavesUnder.get(permitted);
      if (known != null) {
        under.addAll(known);
        continue;
      }
      Set<TypeElement> leaves;
      boolean leftToJavac = javacRejects(sealed, permitted);
      if (leftToJavac || !extendsDirectly(permitted, sealed)) {
        if (!leftToJavac) {
          // Only class files of separate compilations disagree like this; javac checks what it compiles.
          errors.error(permitted, Messages.permittedNotSubtype(display(permitted), display(sealed)));
        }
        hierarchy.rejected.add(permitted);
        hierarchy.leavesUnder.put(permitted, Set.of());
        continue;
      }
      if (!permitted.getTypeParameters().isEmpty()) {
        errors.error(permitted, permitted.getModifiers().contains(Modifier.SEALED)
            ? Messages.sealedLevelGeneric(display(permitted))
            : Messages.eventGeneric(display(permitted)));
      }
      if (isConcreteEvent(permitted)) {
        hierarchy.leaves.add(permitted);
        leaves = Set.of(permitted);
        checkVisible(permitted, generatedPackage, false);
        if (permitted.getKind() == ElementKind.CLASS) {
          if (permitted.getNestingKind() == NestingKind.MEMBER && !permitted.getModifiers().contains(Modifier.STATIC)) {
            errors.error(permitted, Messages.eventInner(
                display(permitted), display((TypeElement) permitted.getEnclosingElement())));
          } else if (!jackson.jacksonCanConstruct(permitted)) {
            errors.error(permitted, Messages.eventNotDeserializable(display(permitted)));
          }
          if (!jackson.checkJacksonProperties(permitted, "stored event")) {
            errors.error(permitted, Messages.eventWithoutProperties(
                display(permitted), permitted.getSimpleName().toString(), display(sealed)));
          }
        }
      } else if (permitted.getModifiers().contains(Modifier.SEALED)) {
        hierarchy.sealedLevels.add(permitted);
        checkNotInstantiable(permitted);
        checkVisible(permitted, generatedPackage, true);
        leaves = collect(permitted, hierarchy, generatedPackage);
      } else if (permitted.getKind() == ElementKind.ENUM) {
        errors.error(permitted, Messages.eventEnum(display(permitted)));
        hierarchy.rejected.add(permitted);
        leaves = Set.of();
      } else {
        errors.error(permitted, Messages.eventNotEnumerable(display(permitted), display(sealed)));
        hierarchy.rejected.add(permitted);
        leaves = Set.of();
      }
      hierarchy.leavesUnder.put(permitted, leaves);
      under.addAll(leaves);
    }
    hierarchy.leavesUnder.put(sealed, under);
    return under;
  }

  /**
   * A sealed level that is a class must be abstract: only its permitted subtypes are events the codec
   * knows, so an instance of the level itself would compile as an event and fail when it is stored.
   */
  private void checkNotInstantiable(TypeElement level) {
    if (level.getKind() == ElementKind.CLASS && !level.getModifiers().contains(Modifier.ABSTRACT)) {
      errors.error(level, Messages.sealedLevelNotAbstract(display(level)));
    }
  }

  private static boolean isConcreteEvent(TypeElement type) {
    return type.getKind() == ElementKind.RECORD
        || (type.getKind() == ElementKind.CLASS
            && type.getModifiers().contains(Modifier.FINAL)
            && !type.getModifiers().contains(Modifier.ABSTRACT));
  }

  /**
   * Whether the generated code in {@code generatedPackage} can name {@code type}: an event or the root must be
   * public there or in that package; a sealed level, which it names only where a handler takes it, must only
   * not be private (the aggregate names it there, so its package sees it).
   */
  private void checkVisible(TypeElement type, PackageElement generatedPackage, boolean level) {
    boolean samePackage = packageOf(type).equals(generatedPackage);
    for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
      Set<Modifier> modifiers = e.getModifiers();
      if (modifiers.contains(Modifier.PRIVATE) || (!level && !samePackage && !modifiers.contains(Modifier.PUBLIC))) {
        String culprit = display((TypeElement) e);
        String where = generatedPackage.getQualifiedName().toString();
        errors.error(type, level
            ? Messages.sealedLevelPrivate(display(type), culprit, where)
            : Messages.eventNotAccessible(display(type), culprit, where));
        return;
      }
    }
  }

  Map<TypeElement, String> checkStoredNames(Set<TypeElement> leaves) {
    Map<TypeElement, String> storedNames = new LinkedHashMap<>();
    Map<String, TypeElement> byName = new HashMap<>();
    for (TypeElement leaf : leaves) {
      Optional<AnnotationMirror> eventType = Annotations.find(leaf, Annotations.EVENT_TYPE);
      String storedName = leaf.getSimpleName().toString();
      if (eventType.isPresent()) {
        AnnotationValue value = Annotations.value(elements, eventType.get(), "value");
        storedName = (String) value.getValue();
        if (storedName.isBlank()) {
          errors.error(leaf, eventType.get(), value, Messages.blankEventType(display(leaf), leaf.getSimpleName().toString()));
          continue;
        }
      }
      TypeElement other = byName.putIfAbsent(storedName, leaf);
      if (other != null) {
        errors.error(leaf, eventType.orElse(null), Messages.duplicateEventType(storedName, display(leaf), display(other)));
      }
      storedNames.put(leaf, storedName);
    }
    return storedNames;
  }

  private PackageElement packageOf(Element element) {
    return elements.getPackageOf(element);
  }
}
