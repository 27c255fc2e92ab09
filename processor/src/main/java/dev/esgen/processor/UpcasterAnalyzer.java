package dev.esgen.processor;

import static dev.esgen.processor.AggregateAnalyzer.display;
import static dev.esgen.processor.AggregateAnalyzer.isType;

import com.palantir.javapoet.ClassName;
import dev.esgen.processor.StoredTypeModel.Result;
import dev.esgen.processor.StoredTypeModel.UpcastModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Checks how an aggregate reads events stored by older code: each event's {@code @EventType} version and
 * aliases, and the {@code @Upcast} methods in the event classes and in the classes of
 * {@code @DomainEvents(upcasters = ...)}: their shapes, and that each stored type's chain of versions has
 * exactly one upcaster per stored version below the current one. Every mistake is one error, on the
 * element that makes it.
 */
final class UpcasterAnalyzer {

  static final String OBJECT_NODE = "com.fasterxml.jackson.databind.node.ObjectNode";

  private final Elements elements;
  private final Types types;
  private final ErrorReporter errors;

  UpcasterAnalyzer(Elements elements, Types types, ErrorReporter errors) {
    this.elements = elements;
    this.types = types;
    this.errors = errors;
  }

  /**
   * The checked chains, and every upcaster method (valid or not) for the snapshot fingerprint.
   *
   * @param current the stored type of each concrete event, in declaration order
   * @param retired the stored types only upcasters read
   * @param methods every upcaster method found, in the order found
   */
  record Versions(Map<TypeElement, StoredTypeModel> current, List<StoredTypeModel> retired,
      List<ExecutableElement> methods) {}

  /** An upcaster as declared: the stored type and version it reads, and its shape when valid. */
  private record Upcaster(ExecutableElement method, AnnotationMirror annotation, String type, int from,
      Optional<Result> result) {}

  Versions analyze(TypeElement aggregate, EventHierarchy events, Map<TypeElement, String> storedNames,
      PackageElement generatedPackage) {
    Map<String, TypeElement> byName = new HashMap<>();
    storedNames.forEach((leaf, name) -> byName.putIfAbsent(name, leaf));
    Map<TypeElement, Integer> versions = new LinkedHashMap<>();
    Map<TypeElement, List<String>> aliases = new LinkedHashMap<>();
    Map<String, TypeElement> byAlias = new HashMap<>();
    for (TypeElement leaf : events.leaves) {
      versions.put(leaf, version(leaf));
      aliases.put(leaf, aliases(leaf, storedNames, byName, byAlias));
    }

    List<ExecutableElement> methods = new ArrayList<>();
    List<Upcaster> upcasters = new ArrayList<>();
    // A leaf without a stored name has a blank @EventType, reported already; its upcasters wait for the fix.
    List<TypeElement> named = events.leaves.stream().filter(storedNames::containsKey).toList();
    for (TypeElement leaf : named) {
      collect(leaf, storedNames.get(leaf), events, generatedPackage, byAlias, storedNames, methods, upcasters);
    }
    Set<TypeElement> listed = upcasterClasses(events.root);
    for (TypeElement holder : listed) {
      // An event class listed there is read as the event class it is, once.
      if (!events.leaves.contains(holder)) {
        collect(holder, null, events, generatedPackage, byAlias, storedNames, methods, upcasters);
      }
    }
    reportIgnored(aggregate, events, listed);
    checkListedClasses(events.root);

    Map<String, TreeMap<Integer, Upcaster>> chains = new LinkedHashMap<>();
    for (Upcaster upcaster : upcasters) {
      TypeElement event = byName.get(upcaster.type());
      String name = name(upcaster.method());
      AnnotationValue from = Annotations.value(elements, upcaster.annotation(), "from");
      if (upcaster.from() < 1) {
        errors.error(upcaster.method(), upcaster.annotation(), from, Messages.upcastVersionTooLow(name, upcaster.from()));
        continue;
      }
      if (event != null && upcaster.from() >= versions.get(event)) {
        errors.error(upcaster.method(), upcaster.annotation(), from,
            Messages.upcastVersionNotStored(name, display(event), upcaster.from(), versions.get(event)));
        continue;
      }
      Upcaster other = chains.computeIfAbsent(upcaster.type(), t -> new TreeMap<>()).putIfAbsent(upcaster.from(), upcaster);
      if (other != null) {
        errors.error(upcaster.method(), upcaster.annotation(), from,
            Messages.duplicateUpcast(name, upcaster.type(), upcaster.from(), name(other.method())));
      }
    }

    Map<TypeElement, StoredTypeModel> current = new LinkedHashMap<>();
    for (TypeElement leaf : named) {
      String name = storedNames.get(leaf);
      TreeMap<Integer, Upcaster> chain = chains.getOrDefault(name, new TreeMap<>());
      checkGaps(leaf, versions.get(leaf), chain);
      current.put(leaf, new StoredTypeModel(name, versions.get(leaf), aliases.get(leaf), models(chain)));
    }
    List<StoredTypeModel> retired = new ArrayList<>();
    chains.forEach((type, chain) -> {
      if (!byName.containsKey(type)) {
        checkRetired(type, chain);
        retired.add(new StoredTypeModel(type, chain.lastKey(), List.of(), models(chain)));
      }
    });
    return new Versions(current, retired, methods);
  }

  // ---- versions and aliases

  private int version(TypeElement leaf) {
    Optional<AnnotationMirror> eventType = Annotations.find(leaf, Annotations.EVENT_TYPE);
    if (eventType.isEmpty()) {
      return 1;
    }
    AnnotationValue value = Annotations.value(elements, eventType.get(), "version");
    int version = (Integer) value.getValue();
    if (version < 1) {
      errors.error(leaf, eventType.get(), value, Messages.invalidEventVersion(display(leaf), version));
      return 1;
    }
    return version;
  }

  private List<String> aliases(TypeElement leaf, Map<TypeElement, String> storedNames, Map<String, TypeElement> byName,
      Map<String, TypeElement> byAlias) {
    Optional<AnnotationMirror> eventType = Annotations.find(leaf, Annotations.EVENT_TYPE);
    if (eventType.isEmpty()) {
      return List.of();
    }
    List<String> aliases = new ArrayList<>();
    Object written = Annotations.value(elements, eventType.get(), "aliases").getValue();
    for (Object element : (List<?>) written) {
      AnnotationValue value = (AnnotationValue) element;
      String alias = (String) value.getValue();
      TypeElement named = byName.get(alias);
      TypeElement aliased = byAlias.get(alias);
      String clash = null;
      if (alias.isBlank()) {
        errors.error(leaf, eventType.get(), value, Messages.blankAlias(display(leaf)));
        continue;
      } else if (leaf.equals(named)) {
        clash = "its own stored name";
      } else if (named != null) {
        clash = "the stored name of " + display(named);
      } else if (leaf.equals(aliased)) {
        clash = "listed twice";
      } else if (aliased != null) {
        clash = "also an alias of " + display(aliased);
      }
      if (clash != null) {
        errors.error(leaf, eventType.get(), value, Messages.aliasClash(alias, display(leaf), clash));
        continue;
      }
      byAlias.put(alias, leaf);
      aliases.add(alias);
    }
    return aliases;
  }

  // ---- finding and checking upcasters

  /** The classes of {@code @DomainEvents(upcasters = ...)}, each once however often it is listed. */
  private static Set<TypeElement> upcasterClasses(TypeElement root) {
    return Annotations.find(root, Annotations.DOMAIN_EVENTS).map(Annotations::upcasterClasses).orElse(Set.of());
  }

  /**
   * Adds the upcasters declared in {@code holder}: an event class, whose own stored name
   * {@code defaultType} is what its upcasters read unless they say otherwise, or an upcasters class
   * ({@code defaultType} null), whose upcasters must name their type.
   */
  private void collect(TypeElement holder, String defaultType, EventHierarchy events, PackageElement generatedPackage,
      Map<String, TypeElement> byAlias, Map<TypeElement, String> storedNames, List<ExecutableElement> methods,
      List<Upcaster> into) {
    for (ExecutableElement method : ElementFilter.methodsIn(holder.getEnclosedElements())) {
      Optional<AnnotationMirror> upcast = Annotations.find(method, Annotations.UPCAST);
      if (upcast.isEmpty()) {
        continue;
      }
      methods.add(method);
      String name = name(method);
      AnnotationValue typeValue = Annotations.value(elements, upcast.get(), "type");
      String type = (String) typeValue.getValue();
      if (type.isEmpty() && defaultType == null) {
        errors.error(method, upcast.get(), Messages.upcastTypeMissing(name, display(holder)));
        continue;
      }
      if (type.isBlank() && !type.isEmpty()) {
        // No event is stored under a blank name (@EventType refuses one): the upcaster would never run.
        errors.error(method, upcast.get(), typeValue, Messages.upcastTypeBlank(name, display(holder)));
        continue;
      }
      type = type.isEmpty() ? defaultType : type;
      TypeElement aliased = byAlias.get(type);
      if (aliased != null) {
        errors.error(method, upcast.get(), typeValue, Messages.upcastAlias(name, type, display(aliased),
            storedNames.get(aliased)));
        continue;
      }
      int from = (Integer) Annotations.value(elements, upcast.get(), "from").getValue();
      into.add(new Upcaster(method, upcast.get(), type, from, checkShape(method, events, generatedPackage)));
    }
  }

  /** The upcaster's result when its shape is valid; otherwise empty, with the one error reported. */
  private Optional<Result> checkShape(ExecutableElement method, EventHierarchy events, PackageElement generatedPackage) {
    String problem = null;
    Result result = null;
    if (!method.getModifiers().contains(Modifier.STATIC)) {
      problem = "is not static";
    } else if (method.getModifiers().contains(Modifier.PRIVATE)) {
      problem = "is private, and the generated codec calls it";
    } else if (!method.getTypeParameters().isEmpty()) {
      problem = "has type parameters";
    } else if (method.getParameters().size() != 1 || !isType(method.getParameters().get(0).asType(), OBJECT_NODE)) {
      problem = "takes (" + String.join(", ", method.getParameters().stream()
          .map(parameter -> parameter.asType().toString()).toList()) + ")";
    } else {
      result = result(method.getReturnType(), events);
      if (result == null) {
        problem = "returns " + method.getReturnType() + ", which is neither ObjectNode nor an event of "
            + display(events.root) + " nor a List of them";
      } else {
        Optional<String> thrown = checkedException(method);
        if (thrown.isPresent()) {
          problem = "declares checked exception " + thrown.get() + ", which the codec cannot pass on (IOException can)";
        }
      }
    }
    if (problem != null) {
      errors.error(method, Messages.upcastSignature(name(method), problem, method.getSimpleName().toString()));
      return Optional.empty();
    }
    String culprit = inaccessible(method, generatedPackage);
    if (culprit != null) {
      errors.error(method, Messages.upcastNotAccessible(name(method), culprit,
          generatedPackage.getQualifiedName().toString()));
      return Optional.empty();
    }
    return Optional.of(result);
  }

  private Result result(TypeMirror returned, EventHierarchy events) {
    if (isType(returned, OBJECT_NODE)) {
      return Result.NEXT_VERSION;
    }
    if (isEvent(returned, events)) {
      return Result.EVENT;
    }
    if (isType(returned, "java.util.List") && ((DeclaredType) returned).getTypeArguments().size() == 1) {
      TypeMirror element = ((DeclaredType) returned).getTypeArguments().get(0);
      if (element instanceof WildcardType wildcard) {
        element = wildcard.getExtendsBound();
      }
      return element != null && isEvent(element, events) ? Result.EVENTS : null;
    }
    return null;
  }

  private boolean isEvent(TypeMirror type, EventHierarchy events) {
    return type.getKind() == TypeKind.DECLARED && events.contains((TypeElement) types.asElement(type));
  }

  /** The first checked exception {@code method} declares that is no {@code IOException}, which the codec may throw. */
  private Optional<String> checkedException(ExecutableElement method) {
    return DeclaredExceptions.firstBeyond(
        method, List.of("java.lang.RuntimeException", "java.lang.Error", "java.io.IOException"), elements, types);
  }

  /** What keeps the generated codec from calling {@code method}: the method or an enclosing class; null if nothing. */
  private String inaccessible(ExecutableElement method, PackageElement generatedPackage) {
    boolean samePackage = elements.getPackageOf(method).equals(generatedPackage);
    if (!samePackage && !method.getModifiers().contains(Modifier.PUBLIC)) {
      return name(method);
    }
    for (Element e = method.getEnclosingElement(); e instanceof TypeElement type; e = e.getEnclosingElement()) {
      Set<Modifier> modifiers = type.getModifiers();
      if (modifiers.contains(Modifier.PRIVATE) || (!samePackage && !modifiers.contains(Modifier.PUBLIC))) {
        return display(type);
      }
    }
    return null;
  }

  /**
   * Each entry of {@code @DomainEvents(upcasters = ...)} must be a class that declares upcasters: a
   * primitive, an array or a class without any would be listed for nothing, most likely instead of the
   * class meant.
   */
  private void checkListedClasses(TypeElement root) {
    Optional<AnnotationMirror> domainEvents = Annotations.find(root, Annotations.DOMAIN_EVENTS);
    AnnotationValue upcasters =
        domainEvents.map(mirror -> Annotations.explicitValue(mirror, "upcasters")).orElse(null);
    if (upcasters == null || !(upcasters.getValue() instanceof List<?> entries)) {
      return;
    }
    for (Object entry : entries) {
      if (!(entry instanceof AnnotationValue value) || !(value.getValue() instanceof TypeMirror listed)) {
        continue;
      }
      if (!(listed instanceof DeclaredType declared) || listed.getKind() != TypeKind.DECLARED) {
        errors.error(root, domainEvents.get(), value, Messages.upcastersNotAClass(display(root), listed.toString()));
      } else if (ElementFilter.methodsIn(declared.asElement().getEnclosedElements()).stream()
          .noneMatch(method -> Annotations.has(method, Annotations.UPCAST))) {
        errors.error(root, domainEvents.get(), value,
            Messages.upcastersWithoutUpcasters(display(root), display((TypeElement) declared.asElement())));
      }
    }
  }

  /**
   * Upcasters where esgen never looks: in the sealed levels of the events, or in the aggregate, unless
   * {@code listed} among the upcaster classes.
   */
  private void reportIgnored(TypeElement aggregate, EventHierarchy events, Set<TypeElement> listed) {
    List<TypeElement> places = new ArrayList<>(events.sealedLevels);
    places.add(aggregate);
    places.removeAll(listed);
    for (TypeElement place : places) {
      for (ExecutableElement method : ElementFilter.methodsIn(place.getEnclosedElements())) {
        Annotations.find(method, Annotations.UPCAST).ifPresent(upcast ->
            errors.error(method, upcast, Messages.upcastIgnored(name(method), display(place))));
      }
    }
  }

  // ---- the chains

  private void checkGaps(TypeElement leaf, int version, TreeMap<Integer, Upcaster> chain) {
    List<Gap> gaps = gaps(chain, version);
    if (!gaps.isEmpty()) {
      AnnotationMirror eventType = Annotations.find(leaf, Annotations.EVENT_TYPE).orElseThrow();
      int first = gaps.get(0).first();
      errors.error(leaf, eventType, Annotations.explicitValue(eventType, "version"), Messages.upcastGap(display(leaf),
          version, gaps, "@Upcast(from = " + first + ") static ObjectNode fromVersion" + first + "(ObjectNode v" + first + ")"));
    }
  }

  private void checkRetired(String type, TreeMap<Integer, Upcaster> chain) {
    List<Gap> gaps = gaps(chain, chain.lastKey());
    if (!gaps.isEmpty()) {
      int first = gaps.get(0).first();
      Upcaster after = chain.higherEntry(first).getValue();
      errors.error(after.method(), after.annotation(), Messages.retiredUpcastGap(type, gaps,
          "@Upcast(type = \"" + type + "\", from = " + first + ")"));
    }
    Upcaster last = chain.lastEntry().getValue();
    if (last.result().orElse(null) == Result.NEXT_VERSION) {
      errors.error(last.method(), Messages.upcastDeadEnd(name(last.method()), type, last.from()));
    }
  }

  /** A run of stored versions that no upcaster reads, {@code first} to {@code last} inclusive. */
  record Gap(int first, int last) {}

  /**
   * The versions below {@code below} that no upcaster of {@code chain} reads, as runs: a version may be
   * any int, so they are found from the upcasters there are, never by counting up to it.
   */
  private static List<Gap> gaps(TreeMap<Integer, Upcaster> chain, int below) {
    List<Gap> gaps = new ArrayList<>();
    int next = 1;
    for (int from : chain.headMap(below).keySet()) {
      if (from > next) {
        gaps.add(new Gap(next, from - 1));
      }
      next = from + 1;
    }
    if (next < below) {
      gaps.add(new Gap(next, below - 1));
    }
    return gaps;
  }

  private static List<UpcastModel> models(TreeMap<Integer, Upcaster> chain) {
    List<UpcastModel> models = new ArrayList<>();
    for (Upcaster upcaster : chain.values()) {
      // invalid ones were reported, and the aggregate is abandoned before generation
      upcaster.result().ifPresent(result -> models.add(new UpcastModel(upcaster.from(),
          ClassName.get((TypeElement) upcaster.method().getEnclosingElement()),
          upcaster.method().getSimpleName().toString(), result)));
    }
    return models;
  }

  /** How errors name an upcaster: {@code MoneyDeposited.fromCents}. */
  private static String name(ExecutableElement method) {
    return display((TypeElement) method.getEnclosingElement()) + "." + method.getSimpleName();
  }
}
