package dev.esgen.processor;

import static dev.esgen.processor.AggregateAnalyzer.display;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Types;

/**
 * Checks that esgen's Jackson mapper ({@code EsgenJson}: databind with the JSR-310 and JDK 8 modules)
 * can write, and read back, the declared type of every property of an event or of the aggregate state,
 * following the types they hold: collection elements, map values, {@code Optional} contents, and the
 * components and fields of records and classes compiled here.
 *
 * <p>The rule is conservative: it refuses only what fails for certain, so that nothing that works is
 * refused. It judges the JDK's types, whose handling by Jackson is known, and the types compiled here,
 * which the user can change; a type from another library is left alone, since the mapper may have a
 * module for it that esgen cannot see. A property or type carrying Jackson annotations that choose its
 * form ({@code @JsonTypeInfo}, {@code @JsonDeserialize}, {@code @JsonValue}, ...) is the user's decision
 * and is not judged either. Refused are:
 * <ul>
 *   <li>an interface or abstract class without type information: Jackson writes the object but cannot
 *       tell which class to build when reading ({@code Runnable}, a plain {@code Shape} interface);
 *   <li>an inner (non-static) class, except as a field of its enclosing class: Jackson has no enclosing
 *       instance to build it with;
 *   <li>a class with no property Jackson sees: writing it fails;
 *   <li>a class Jackson cannot construct: reading it fails;
 *   <li>a map key type compiled here that does not survive Jackson's key form, {@code toString()} on the
 *       way out and a constructor or factory taking one {@code String} on the way in.
 * </ul>
 */
final class JacksonTypes {

  /**
   * Abstract JDK types that esgen's mapper reads back without type information (beside collections and
   * maps, whose elements are checked instead). Found by reading JSON values as every public abstract
   * type of {@code java.base} with Jackson 2.19.
   */
  private static final Set<String> READABLE_ABSTRACT_JDK_TYPES = Set.of(
      "java.io.Serializable",
      "java.lang.CharSequence",
      "java.lang.Number",
      "java.nio.ByteBuffer",
      "java.nio.charset.Charset",
      "java.nio.file.Path",
      "java.time.ZoneId",
      "java.util.Calendar",
      "java.util.TimeZone");

  /**
   * Abstract JDK collections and maps esgen's mapper reads back, each by building its default
   * implementation ({@code ArrayList}, {@code TreeSet}, {@code LinkedHashMap}, ...); and {@code Map.Entry},
   * which it reads as a one-entry object. Any other abstract one ({@code BlockingQueue},
   * {@code AbstractQueue}, ...) Jackson writes but cannot build. Found like the types above.
   */
  private static final Set<String> READABLE_ABSTRACT_JDK_CONTAINERS = Set.of(
      "java.lang.Iterable",
      "java.util.AbstractList",
      "java.util.AbstractMap",
      "java.util.AbstractSet",
      "java.util.Collection",
      "java.util.Deque",
      "java.util.EnumSet",
      "java.util.List",
      "java.util.Map",
      "java.util.Map.Entry",
      "java.util.NavigableMap",
      "java.util.NavigableSet",
      "java.util.Queue",
      "java.util.Set",
      "java.util.SortedMap",
      "java.util.SortedSet",
      "java.util.concurrent.ConcurrentMap",
      "java.util.concurrent.ConcurrentNavigableMap");

  /** Jackson annotations on a property that name it or tune its inclusion without changing its form. */
  private static final Set<String> NAMING_ANNOTATIONS = Set.of(
      Annotations.JSON_PROPERTY,
      "com.fasterxml.jackson.annotation.JsonAlias",
      "com.fasterxml.jackson.annotation.JsonInclude",
      "com.fasterxml.jackson.annotation.JsonPropertyDescription");

  private final Types types;
  private final ErrorReporter errors;
  private final JacksonVisibility visibility;
  private final CompiledTypes compiledTypes;
  /** Per supertype name, whether each type asked about has it. */
  private final Map<String, Map<Element, Boolean>> hasSupertype = new HashMap<>();

  JacksonTypes(Types types, ErrorReporter errors, JacksonVisibility visibility, CompiledTypes compiledTypes) {
    this.types = types;
    this.errors = errors;
    this.visibility = visibility;
    this.compiledTypes = compiledTypes;
  }

  /** Where a refused type was met, and why it is refused. */
  private record Problem(Kind kind, TypeElement culprit, List<String> via) {
    Problem within(String property) {
      List<String> path = new ArrayList<>(List.of(property));
      path.addAll(via);
      return new Problem(kind, culprit, path);
    }
  }

  private enum Kind { ABSTRACT, INNER, EMPTY, NO_CREATOR, KEY_WITHOUT_TO_STRING, KEY_WITHOUT_STRING_CREATOR }

  /**
   * Checks the properties of the aggregate {@code aggregate} and of its concrete {@code events}, each
   * problem once, on the property that leads to it. A type compiled here that is refused is reported on
   * the first property that holds it only: the mistake is in that type.
   */
  void check(TypeElement aggregate, Iterable<TypeElement> events) {
    Set<TypeElement> reported = new HashSet<>();
    checkProperties(aggregate, "aggregate " + display(aggregate), reported);
    for (TypeElement event : events) {
      checkProperties(event, "event " + display(event), reported);
    }
  }

  private void checkProperties(TypeElement owner, String ownerLabel, Set<TypeElement> reported) {
    Map<String, VariableElement> fields = new LinkedHashMap<>();
    for (VariableElement field : ElementFilter.fieldsIn(owner.getEnclosedElements())) {
      fields.put(field.getSimpleName().toString(), field);
    }
    if (owner.getKind() == ElementKind.RECORD) {
      for (RecordComponentElement component : owner.getRecordComponents()) {
        String name = component.getSimpleName().toString();
        // javac (17) places no diagnostic on a record component, only on its field.
        Element at = fields.containsKey(name) ? fields.get(name) : component;
        if (!choosesItsForm(component) && !choosesItsForm(at) && !choosesItsForm(component.getAccessor())) {
          checkProperty(at, "component " + name + " of " + ownerLabel, owner, component.asType(), reported);
        }
      }
    } else if (owner.getKind() == ElementKind.CLASS) {
      for (VariableElement field : fields.values()) {
        Set<Modifier> modifiers = field.getModifiers();
        if (!modifiers.contains(Modifier.STATIC) && !modifiers.contains(Modifier.TRANSIENT) && !choosesItsForm(field)) {
          checkProperty(field, "field " + field.getSimpleName() + " of " + ownerLabel, owner, field.asType(), reported);
        }
      }
    }
  }

  private void checkProperty(Element at, String where, TypeElement owner, TypeMirror type, Set<TypeElement> reported) {
    Optional<Problem> problem = check(type, owner, new HashSet<>());
    if (problem.isEmpty()) {
      return;
    }
    TypeElement culprit = problem.get().culprit();
    if (compiledTypes.contains(culprit) && !reported.add(culprit)) {
      return;
    }
    errors.error(at, message(problem.get(), where, type));
  }

  private String message(Problem problem, String where, TypeMirror type) {
    TypeElement culprit = problem.culprit();
    String via = problem.via().isEmpty() ? "" : " (through " + String.join(", ", problem.via()) + ")";
    String culpritName = display(culprit);
    return switch (problem.kind()) {
      case INNER -> Messages.jsonInnerClass(where, type.toString(), via, culpritName,
          display((TypeElement) culprit.getEnclosingElement()));
      case ABSTRACT -> Messages.jsonAbstractType(where, type.toString(), via, culpritName,
          culprit.getKind() == ElementKind.INTERFACE ? "an interface" : "an abstract class",
          Messages.jsonAbstractTypeFix(culpritName, compiledTypes.contains(culprit), isEvent(culprit)));
      case EMPTY -> Messages.jsonEmptyType(where, type.toString(), via, culpritName);
      case NO_CREATOR -> Messages.jsonNoCreator(where, type.toString(), via, culpritName);
      case KEY_WITHOUT_TO_STRING -> Messages.jsonMapKey(where, type.toString(), via, culpritName,
          culpritName + " does not override toString(), so its keys would read back as other values");
      case KEY_WITHOUT_STRING_CREATOR -> Messages.jsonMapKey(where, type.toString(), via, culpritName,
          culpritName + " has no constructor, valueOf(String) or fromString(String) taking the one String");
    };
  }

  /**
   * @param holder the record or class whose property {@code type} is, or null when {@code type} is held
   *     by a collection, map, array or {@code Optional}
   */
  private Optional<Problem> check(TypeMirror type, TypeElement holder, Set<TypeElement> visiting) {
    return switch (type.getKind()) {
      case ARRAY -> check(((ArrayType) type).getComponentType(), null, visiting);
      case WILDCARD -> {
        TypeMirror bound = ((WildcardType) type).getExtendsBound();
        yield bound == null ? Optional.empty() : check(bound, holder, visiting);
      }
      case DECLARED -> checkDeclared((DeclaredType) type, holder, visiting);
      // Primitives, type variables (events and aggregates have none) and unresolved types.
      default -> Optional.empty();
    };
  }

  private Optional<Problem> checkDeclared(DeclaredType type, TypeElement holder, Set<TypeElement> visiting) {
    TypeElement element = (TypeElement) type.asElement();
    String name = element.getQualifiedName().toString();
    if (choosesItsForm(element)) {
      return Optional.empty();
    }
    if (name.equals("java.util.Optional") || name.equals("java.util.concurrent.atomic.AtomicReference")) {
      return type.getTypeArguments().isEmpty() ? Optional.empty() : check(type.getTypeArguments().get(0), null, visiting);
    }
    if (isAbstract(element) && name.startsWith("java.") && !READABLE_ABSTRACT_JDK_CONTAINERS.contains(name)
        && (asSupertype(type, "java.util.Map").isPresent() || asSupertype(type, "java.lang.Iterable").isPresent())) {
      return Optional.of(new Problem(Kind.ABSTRACT, element, List.of()));
    }
    Optional<DeclaredType> map = asSupertype(type, "java.util.Map");
    if (map.isEmpty() && name.equals("java.util.Map.Entry")) {
      map = Optional.of(type); // read as a one-entry map: its key is a map key
    }
    if (map.isPresent()) {
      List<? extends TypeMirror> arguments = map.get().getTypeArguments();
      if (arguments.size() != 2) {
        return Optional.empty();
      }
      Optional<Problem> key = checkKey(arguments.get(0));
      return key.isPresent() ? key : check(arguments.get(1), null, visiting);
    }
    Optional<DeclaredType> iterable = asSupertype(type, "java.lang.Iterable");
    if (iterable.isPresent()) {
      List<? extends TypeMirror> arguments = iterable.get().getTypeArguments();
      return arguments.size() == 1 ? check(arguments.get(0), null, visiting) : Optional.empty();
    }
    // Only java.* is judged here: Jackson's handling of it is known. The rest of the JDK (javax.xml's
    // abstract XMLGregorianCalendar, which databind reads) and javax.* libraries are left to Jackson, as
    // every type not compiled here is.
    if (name.startsWith("java.")) {
      return isAbstract(element) && !READABLE_ABSTRACT_JDK_TYPES.contains(name)
          ? Optional.of(new Problem(Kind.ABSTRACT, element, List.of()))
          : Optional.empty();
    }
    if (!compiledTypes.contains(element) || element.getKind() == ElementKind.ENUM) {
      return Optional.empty();
    }
    if (isAbstract(element)) {
      return Optional.of(new Problem(Kind.ABSTRACT, element, List.of()));
    }
    if (isInner(element) && !builtByItsOuterInstance(element, holder)) {
      return Optional.of(new Problem(Kind.INNER, element, List.of()));
    }
    if (!visiting.add(element)) {
      return Optional.empty();
    }
    try {
      return element.getKind() == ElementKind.RECORD
          ? checkRecordComponents(type, element, visiting)
          : checkClass(type, element, visiting);
    } finally {
      visiting.remove(element);
    }
  }

  private Optional<Problem> checkRecordComponents(DeclaredType type, TypeElement record, Set<TypeElement> visiting) {
    for (RecordComponentElement component : record.getRecordComponents()) {
      ExecutableElement accessor = component.getAccessor();
      if (choosesItsForm(component) || choosesItsForm(accessor)) {
        continue;
      }
      TypeMirror componentType = ((ExecutableType) types.asMemberOf(type, accessor)).getReturnType();
      Optional<Problem> problem = check(componentType, record, visiting);
      if (problem.isPresent()) {
        return Optional.of(problem.get().within(display(record) + "." + component.getSimpleName()));
      }
    }
    return Optional.empty();
  }

  private Optional<Problem> checkClass(DeclaredType type, TypeElement element, Set<TypeElement> visiting) {
    if (!visibility.hasVisibleProperty(element)) {
      return Optional.of(new Problem(Kind.EMPTY, element, List.of()));
    }
    if (!visibility.hasCreator(element)) {
      return Optional.of(new Problem(Kind.NO_CREATOR, element, List.of()));
    }
    for (VariableElement field : ElementFilter.fieldsIn(element.getEnclosedElements())) {
      Set<Modifier> modifiers = field.getModifiers();
      if (modifiers.contains(Modifier.STATIC) || modifiers.contains(Modifier.TRANSIENT) || choosesItsForm(field)) {
        continue;
      }
      Optional<Problem> problem = check(types.asMemberOf(type, field), element, visiting);
      if (problem.isPresent()) {
        return Optional.of(problem.get().within(display(element) + "." + field.getSimpleName()));
      }
    }
    return Optional.empty();
  }

  /**
   * Jackson writes a map key with {@code toString()} (or its {@code @JsonValue}) and reads it back with
   * a constructor or static factory taking one {@code String}. A key type compiled here needs both.
   */
  private Optional<Problem> checkKey(TypeMirror key) {
    if (key instanceof WildcardType wildcard) {
      return wildcard.getExtendsBound() == null ? Optional.empty() : checkKey(wildcard.getExtendsBound());
    }
    if (!(key instanceof DeclaredType declared)) {
      return Optional.empty();
    }
    TypeElement element = (TypeElement) declared.asElement();
    if (!compiledTypes.contains(element) || element.getKind() == ElementKind.ENUM || choosesItsKeyForm(element)) {
      return Optional.empty();
    }
    if (!overridesToString(element)) {
      return Optional.of(new Problem(Kind.KEY_WITHOUT_TO_STRING, element, List.of()));
    }
    if (!hasStringCreator(element)) {
      return Optional.of(new Problem(Kind.KEY_WITHOUT_STRING_CREATOR, element, List.of()));
    }
    return Optional.empty();
  }

  private boolean choosesItsKeyForm(TypeElement key) {
    return hasMemberAnnotated(key, Annotations.JSON_VALUE) && hasStringCreator(key);
  }

  private boolean overridesToString(TypeElement type) {
    for (TypeElement t = type; t != null; t = superclass(t)) {
      String name = t.getQualifiedName().toString();
      if (name.equals("java.lang.Object") || name.equals("java.lang.Record") || name.equals("java.lang.Enum")) {
        return false;
      }
      for (ExecutableElement method : ElementFilter.methodsIn(t.getEnclosedElements())) {
        if (method.getSimpleName().contentEquals("toString")
            && method.getParameters().isEmpty()
            && !isImplicitRecordToString(t, method)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether {@code method} is the {@code toString()} javac declares for a record. javac (17) gives it
   * origin EXPLICIT like a written one; what tells them apart is that it is final, which a record's own
   * {@code toString()} hardly ever is.
   */
  private static boolean isImplicitRecordToString(TypeElement type, ExecutableElement method) {
    return type.getKind() == ElementKind.RECORD && method.getModifiers().contains(Modifier.FINAL);
  }

  private boolean hasStringCreator(TypeElement type) {
    for (ExecutableElement constructor : ElementFilter.constructorsIn(type.getEnclosedElements())) {
      if (takesOneString(constructor)) {
        return true;
      }
    }
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (method.getModifiers().contains(Modifier.STATIC)
          && takesOneString(method)
          && (method.getSimpleName().contentEquals("valueOf")
              || method.getSimpleName().contentEquals("fromString")
              || Annotations.has(method, Annotations.JSON_CREATOR))) {
        return true;
      }
    }
    return false;
  }

  private static boolean takesOneString(ExecutableElement executable) {
    return executable.getParameters().size() == 1
        && AggregateAnalyzer.isType(executable.getParameters().get(0).asType(), "java.lang.String");
  }

  private static TypeElement superclass(TypeElement type) {
    return type.getSuperclass() instanceof DeclaredType declared ? (TypeElement) declared.asElement() : null;
  }

  /** {@code type} viewed as its supertype {@code qualifiedName}, with that supertype's type arguments. */
  private Optional<DeclaredType> asSupertype(DeclaredType type, String qualifiedName) {
    // Most types checked (String, Instant, the state's own records) are neither maps nor iterables, and
    // come up again in every aggregate: their answer is kept rather than their supertypes walked again.
    Map<Element, Boolean> known = hasSupertype.computeIfAbsent(qualifiedName, name -> new HashMap<>());
    Element element = type.asElement();
    if (Boolean.FALSE.equals(known.get(element))) {
      return Optional.empty();
    }
    Optional<DeclaredType> found = findSupertype(type, qualifiedName);
    known.put(element, found.isPresent());
    return found;
  }

  private Optional<DeclaredType> findSupertype(DeclaredType type, String qualifiedName) {
    if (((TypeElement) type.asElement()).getQualifiedName().contentEquals(qualifiedName)) {
      return Optional.of(type);
    }
    for (TypeMirror supertype : types.directSupertypes(type)) {
      if (supertype instanceof DeclaredType declared) {
        Optional<DeclaredType> found = findSupertype(declared, qualifiedName);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  /** Whether {@code type} is an events root or below one. */
  private boolean isEvent(TypeElement type) {
    return Annotations.has(type, Annotations.DOMAIN_EVENTS) || MisplacedAnnotations.isEvent(types, type.asType());
  }

  private static boolean isInner(TypeElement type) {
    return type.getNestingKind() == NestingKind.MEMBER
        && type.getKind() == ElementKind.CLASS
        && !type.getModifiers().contains(Modifier.STATIC);
  }

  /**
   * Jackson builds an instance of an inner class only as the property of a bean of its enclosing class,
   * built first through a no-argument constructor: never for a record, never inside a collection.
   */
  private static boolean builtByItsOuterInstance(TypeElement inner, TypeElement holder) {
    return holder != null && holder.getKind() == ElementKind.CLASS && holder.equals(inner.getEnclosingElement());
  }

  private static boolean isAbstract(TypeElement type) {
    return type.getKind() == ElementKind.INTERFACE
        || type.getKind() == ElementKind.ANNOTATION_TYPE
        || (type.getKind() == ElementKind.CLASS && type.getModifiers().contains(Modifier.ABSTRACT));
  }

  /**
   * Whether {@code element} carries a Jackson annotation beyond naming: on a property, one that chooses
   * how it is written or read ({@code @JsonSerialize}, {@code @JsonTypeInfo}, {@code @JsonIgnore}, ...);
   * on a type, including its supertypes and members, one that chooses how the type is written or read
   * ({@code @JsonTypeInfo}, {@code @JsonDeserialize}, {@code @JsonValue}, {@code @JsonAutoDetect}, ...).
   * Either way the user has decided, with knowledge esgen does not have, and esgen does not judge it.
   */
  private boolean choosesItsForm(Element element) {
    if (element == null) {
      return false;
    }
    // The JDK's types carry no Jackson annotations: no need to walk String's or Object's members and
    // supertypes again for every property that has one.
    if (element instanceof TypeElement type && JdkTypes.isJdk(type)) {
      return false;
    }
    if (hasFormAnnotation(element)) {
      return true;
    }
    if (element instanceof TypeElement type) {
      for (TypeMirror supertype : types.directSupertypes(type.asType())) {
        if (supertype instanceof DeclaredType declared && choosesItsForm(declared.asElement())) {
          return true;
        }
      }
      return hasMemberAnnotated(type, Annotations.JSON_VALUE)
          || hasMemberAnnotated(type, "com.fasterxml.jackson.annotation.JsonAnyGetter");
    }
    return false;
  }

  private static boolean hasFormAnnotation(Element element) {
    for (AnnotationMirror annotation : element.getAnnotationMirrors()) {
      String name = ((TypeElement) annotation.getAnnotationType().asElement()).getQualifiedName().toString();
      if (name.startsWith("com.fasterxml.jackson.") && !NAMING_ANNOTATIONS.contains(name)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasMemberAnnotated(TypeElement type, String annotation) {
    for (Element member : type.getEnclosedElements()) {
      if (Annotations.has(member, annotation)) {
        return true;
      }
    }
    return false;
  }
}
