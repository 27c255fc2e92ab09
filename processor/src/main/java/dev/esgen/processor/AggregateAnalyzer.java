package dev.esgen.processor;

import com.palantir.javapoet.ClassName;
import dev.esgen.processor.ColumnAnalyzer.Property;
import dev.esgen.processor.HandlerAnalyzer.Handler;
import dev.esgen.processor.HandlerAnalyzer.Handlers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.ModuleElement;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.type.WildcardType;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Checks one {@code @Aggregate} type and everything it refers to, and turns it into an
 * {@link AggregateModel}.
 *
 * <p>Every problem is reported on the element at fault, and checking goes on so that one compile shows
 * all of an aggregate's mistakes; the aggregate is then abandoned with {@link AbortAggregateException}.
 *
 * <p>The checks of each concern live in a collaborator ({@link AggregateOptionsReader},
 * {@link ColumnAnalyzer}, {@link EventAnalyzer}, {@link HandlerAnalyzer}, {@link JacksonVisibility},
 * {@link EvolutionAnalyzer}, {@link UnnamedPackageNames});
 * this class decides their order, which is the order the errors are reported in, and when to defer or
 * give up.
 */
final class AggregateAnalyzer {

  private final Elements elements;
  private final Types types;
  private final ErrorReporter errors;
  private final AggregateOptionsReader optionsReader;
  private final JacksonVisibility jackson;
  private final JacksonTypes jacksonTypes;
  private final EventAnalyzer eventAnalyzer;
  private final HandlerAnalyzer handlerAnalyzer;
  private final ColumnAnalyzer columnAnalyzer;
  private final ComponentModel componentModel;
  private final EvolutionAnalyzer evolutionAnalyzer;
  private final UnnamedPackageNames unnamedPackageNames;
  private final CompiledTypes compiledTypes;
  private final DeprecatedUses deprecatedUses;
  private final UnresolvedAnnotations unresolvedAnnotations;

  /**
   * @param aggregateNames stored aggregate name to the qualified name of the aggregate that claimed it,
   *     shared by all aggregates of one compilation
   * @param compiledTypes the types this compilation processes, filled in as rounds go
   * @param componentModel the compilation's {@code -Aesgen.componentModel}
   * @param fingerprinter computes the fingerprints snapshots are stored with
   */
  public AggregateAnalyzer(Elements elements, Types types, ErrorReporter errors, Map<String, String> aggregateNames,
      CompiledTypes compiledTypes, ComponentModel componentModel, SnapshotFingerprinter fingerprinter,
      UnresolvedAnnotations unresolvedAnnotations) {
    this.elements = elements;
    this.unresolvedAnnotations = unresolvedAnnotations;
    this.types = types;
    this.errors = errors;
    this.componentModel = componentModel;
    this.compiledTypes = compiledTypes;
    this.optionsReader = new AggregateOptionsReader(elements, errors, aggregateNames);
    this.jackson = new JacksonVisibility(errors);
    this.eventAnalyzer = new EventAnalyzer(elements, types, errors, jackson, compiledTypes);
    this.jacksonTypes = new JacksonTypes(types, errors, jackson, compiledTypes);
    this.handlerAnalyzer = new HandlerAnalyzer(elements, types, errors);
    this.columnAnalyzer = new ColumnAnalyzer(elements, types, errors);
    this.evolutionAnalyzer =
        new EvolutionAnalyzer(elements, errors, new UpcasterAnalyzer(elements, types, errors), fingerprinter);
    this.unnamedPackageNames = new UnnamedPackageNames(elements, errors);
    this.deprecatedUses = new DeprecatedUses(elements);
  }

  /**
   * Checks {@code type} and returns its model.
   *
   * @throws AbortAggregateException when errors were reported
   * @throws DeferAggregateException when types it refers to are not resolvable yet
   */
  public AggregateModel analyze(TypeElement type) throws AbortAggregateException, DeferAggregateException {
    try {
      return check(type);
    } finally {
      errors.clearClassFileSite();
    }
  }

  private AggregateModel check(TypeElement type) throws AbortAggregateException, DeferAggregateException {
    AnnotationMirror aggregate = Annotations.find(type, Annotations.AGGREGATE).orElseThrow();
    int errorsBefore = errors.errorCount();
    String simpleName = display(type);

    if (type.getKind() != ElementKind.RECORD && type.getKind() != ElementKind.CLASS) {
      errors.error(type, aggregate, Messages.aggregateKind(simpleName, type.getSimpleName().toString(),
          kindName(type.getKind())));
      throw new AbortAggregateException();
    }
    AnnotationValue eventsValue = Annotations.explicitValue(aggregate, "events");
    List<String> unresolved = unresolvedTypes(type, aggregate, eventsValue);
    if (!unresolved.isEmpty()) {
      throw new DeferAggregateException(unresolved);
    }
    // Events, and all else reached through them, may come from class files, where nothing has a line.
    errors.setClassFileSite(type, aggregate, eventsValue);

    checkDeclaration(type, aggregate, simpleName);
    Optional<String> name = optionsReader.checkName(type, aggregate);
    AggregateOptions options = optionsReader.checkOptions(type, aggregate);
    checkComponentModel(type, aggregate);

    if (!(eventsValue.getValue() instanceof DeclaredType eventsType)) {
      errors.error(type, aggregate, eventsValue, Messages.eventsNotAType(simpleName, eventsValue.toString()));
      throw new AbortAggregateException();
    }
    TypeElement root = (TypeElement) eventsType.asElement();
    boolean rootOk = true;
    Optional<String> cannotBeRoot = cannotBeEventsRoot(root);
    if (cannotBeRoot.isPresent()) {
      // Annotating and sealing it, the advice below, is impossible: say what to point events at instead.
      errors.error(type, aggregate, eventsValue, Messages.eventsCannotBeRoot(
          simpleName, display(root), cannotBeRoot.get(), type.getSimpleName() + "Event"));
      rootOk = false;
    } else {
      if (!Annotations.has(root, Annotations.DOMAIN_EVENTS)) {
        errors.error(type, aggregate, eventsValue, Messages.eventsNotDomainEvents(simpleName, display(root)));
        rootOk = false;
      }
      if (!root.getModifiers().contains(Modifier.SEALED)) {
        errors.error(type, aggregate, eventsValue,
            Messages.eventsNotSealed(simpleName, display(root), root.getKind() == ElementKind.INTERFACE));
        rootOk = false;
      }
    }
    // A type that cannot be the root at all (the JDK's List, say) is one mistake, reported above.
    if (cannotBeRoot.isEmpty() && !root.getTypeParameters().isEmpty()) {
      errors.error(root, Messages.eventGeneric(display(root)));
      rootOk = false;
    }

    List<Property> properties = columnAnalyzer.properties(type);
    Optional<IdModel> id = columnAnalyzer.checkId(type, aggregate, simpleName, properties);
    List<ColumnModel> columns = columnAnalyzer.checkColumns(type, simpleName, properties);
    columnAnalyzer.checkIndexedCount(simpleName, properties, columns, options.tip().isPresent());

    if (!rootOk) {
      throw new AbortAggregateException();
    }
    EventHierarchy events = eventAnalyzer.walk(root, packageOf(type));
    Map<TypeElement, String> storedNames = eventAnalyzer.checkStoredNames(events.leaves);
    Handlers handlers = handlerAnalyzer.checkHandlers(type, aggregate, simpleName, events);
    jacksonTypes.check(type, events.leaves);
    EvolutionModel evolution =
        evolutionAnalyzer.analyze(type, aggregate, events, storedNames, handlers, packageOf(type));

    if (errors.errorCount() > errorsBefore) {
      throw new AbortAggregateException();
    }
    if (handlers.creator == null) {
      // The creating method takes a subtype of the root that the permits clause leaves out. javac reports
      // that after processing, and only if esgen reports nothing; there is no repository without a creator.
      throw new AbortAggregateException();
    }
    List<EventModel> eventModels = new ArrayList<>();
    for (TypeElement leaf : events.leaves) {
      eventModels.add(
          new EventModel(
              ClassName.get(leaf),
              storedNames.get(leaf),
              handlers.appliedBy.containsKey(leaf),
              handlers.creatorLeaves.contains(leaf)));
    }
    List<HandlerModel> handlerModels = new ArrayList<>();
    for (Handler handler : handlers.handlers) {
      handlerModels.add(new HandlerModel(ClassName.get(handler.event()), handler.event().equals(root)));
    }
    Handler creator = handlers.creator;
    DeprecatedUses.SuppressedWarnings suppressedWarnings =
        deprecatedUses.find(type, events, handlers, id.orElseThrow(), columns, evolution);
    AggregateModel model = new AggregateModel(
        type,
        ClassName.get(type),
        name.orElseThrow(),
        ClassName.get(root),
        eventModels,
        new CreatorModel(creator.method().getSimpleName().toString(), ClassName.get(creator.event()), creator.event().equals(root)),
        handlerModels,
        id.orElseThrow(),
        columns,
        options,
        componentModel,
        evolution,
        suppressedWarnings,
        publicOutsidePackage(type));
    if (!unnamedPackageNames.check(model)) {
      throw new AbortAggregateException();
    }
    return model;
  }

  // ---- deferral

  private List<String> unresolvedTypes(TypeElement type, AnnotationMirror aggregate, AnnotationValue eventsValue) {
    Set<String> missing = new LinkedHashSet<>();
    // The types of this compilation whose fields and components were looked into, the aggregate first.
    Set<TypeElement> held = new HashSet<>(Set.of(type));
    unresolvedValues(aggregate, missing);
    unresolvedAnnotations.addIn(type, missing);
    Object events = eventsValue == null ? null : eventsValue.getValue();
    if (events instanceof DeclaredType declared && declared.getKind() == TypeKind.DECLARED) {
      TypeElement root = (TypeElement) declared.asElement();
      unresolvedAnnotations.addIn(root, missing);
      // @DomainEvents(upcasters = ...) may name a class another processor generates
      Annotations.find(root, Annotations.DOMAIN_EVENTS).ifPresent(mirror -> {
        unresolvedValues(mirror, missing);
        Annotations.upcasterClasses(mirror).forEach(holder -> {
          unresolvedAnnotations.addIn(holder, missing);
          unresolvedUpcasts(holder, missing);
        });
      });
      unresolvedPermitted(root, missing, new HashSet<>(), held);
    } else if (events == null) {
      // javac reports the missing member itself.
      missing.add("the events type");
    }
    // A resolved type that is no class (events = int.class) is reported by analyze; an unresolved one by
    // unresolvedValues.
    for (Element member : type.getEnclosedElements()) {
      if (member.getKind() == ElementKind.FIELD || member.getKind() == ElementKind.RECORD_COMPONENT) {
        unresolvedHeld(member.asType(), missing, held);
        for (String column : List.of(Annotations.INDEXED, Annotations.UNIQUE)) {
          Annotations.find(member, column).ifPresent(mirror -> unresolvedValues(mirror, missing));
        }
      } else if (member instanceof ExecutableElement executable) {
        unresolvedSignature(executable, missing);
      }
    }
    return List.copyOf(missing);
  }

  /**
   * Adds the unresolved types of {@code method}'s signature: an error type there (a missing import, a type
   * another processor generates later) would otherwise be judged as a wrong parameter or return type, or
   * pass as an unchecked exception (javac holds an error type a subtype of every type).
   */
  private static void unresolvedSignature(ExecutableElement method, Set<String> missing) {
    unresolved(method.getReturnType(), missing);
    for (VariableElement parameter : method.getParameters()) {
      unresolved(parameter.asType(), missing);
    }
    for (TypeMirror thrown : method.getThrownTypes()) {
      unresolved(thrown, missing);
    }
  }

  private void unresolvedPermitted(TypeElement sealed, Set<String> missing, Set<TypeElement> seen,
      Set<TypeElement> held) {
    if (!seen.add(sealed)) {
      return;
    }
    for (TypeMirror permitted : sealed.getPermittedSubclasses()) {
      if (permitted.getKind() == TypeKind.ERROR) {
        missing.add(permitted.toString());
      } else if (permitted.getKind() == TypeKind.DECLARED) {
        TypeElement element = (TypeElement) types.asElement(permitted);
        unresolvedAnnotations.addIn(element, missing);
        Annotations.find(element, Annotations.EVENT_TYPE).ifPresent(mirror -> unresolvedValues(mirror, missing));
        unresolvedUpcasts(element, missing);
        unresolvedHeld(permitted, missing, held);
        unresolvedPermitted(element, missing, seen, held);
      }
    }
  }

  /**
   * Adds the unresolved types in {@code type} and in everything a value of it holds, as far as it is
   * compiled here: the fields and components of its records and classes, and the permitted subtypes of
   * its sealed ones. The JSON checks and the snapshot fingerprint follow them all, and a type another
   * processor generates later is an error type until then, which neither can judge.
   */
  private void unresolvedHeld(TypeMirror type, Set<String> missing, Set<TypeElement> held) {
    switch (type.getKind()) {
      case ERROR -> missing.add(type.toString());
      case ARRAY -> unresolvedHeld(((ArrayType) type).getComponentType(), missing, held);
      case WILDCARD -> {
        WildcardType wildcard = (WildcardType) type;
        for (TypeMirror bound : Arrays.asList(wildcard.getExtendsBound(), wildcard.getSuperBound())) {
          if (bound != null) {
            unresolvedHeld(bound, missing, held);
          }
        }
      }
      case DECLARED -> {
        DeclaredType declared = (DeclaredType) type;
        for (TypeMirror argument : declared.getTypeArguments()) {
          unresolvedHeld(argument, missing, held);
        }
        TypeElement element = (TypeElement) declared.asElement();
        if (compiledTypes.contains(element) && held.add(element)) {
          for (VariableElement field : ElementFilter.fieldsIn(element.getEnclosedElements())) {
            if (!field.getModifiers().contains(Modifier.STATIC)) {
              unresolvedHeld(field.asType(), missing, held);
            }
          }
          for (TypeMirror permitted : element.getPermittedSubclasses()) {
            unresolvedHeld(permitted, missing, held);
          }
        }
      }
      default -> { }
    }
  }

  private static void unresolvedUpcasts(TypeElement holder, Set<String> missing) {
    for (Element member : holder.getEnclosedElements()) {
      if (member.getKind() == ElementKind.METHOD) {
        Annotations.find(member, Annotations.UPCAST).ifPresent(mirror -> {
          unresolvedValues(mirror, missing);
          unresolvedSignature((ExecutableElement) member, missing);
        });
      }
    }
  }

  /**
   * Adds the members of {@code annotation} whose written values javac could not resolve, such as a
   * constant of a class another processor has not generated yet: javac then hands over the string
   * {@code "<error>"}, an error type, or a value of the wrong kind, none of which may be checked or cast.
   */
  private static void unresolvedValues(AnnotationMirror annotation, Set<String> missing) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry :
        annotation.getElementValues().entrySet()) {
      Object value = entry.getValue().getValue();
      if (isType(entry.getKey().getReturnType(), "java.lang.Class") && !isResolved(entry.getKey().getReturnType(), value)) {
        // javac hands over "<error>" rather than the name written; its own error above names the class.
        missing.add("the " + entry.getKey().getSimpleName() + " type");
      } else if (!isResolved(entry.getKey().getReturnType(), value)) {
        missing.add("the " + entry.getKey().getSimpleName() + " of @"
            + annotation.getAnnotationType().asElement().getSimpleName());
      }
    }
  }

  private static boolean isResolved(TypeMirror memberType, Object value) {
    if ("<error>".equals(value)) {
      return false;
    }
    return switch (memberType.getKind()) {
      case BOOLEAN -> value instanceof Boolean;
      case BYTE -> value instanceof Byte;
      case SHORT -> value instanceof Short;
      case CHAR -> value instanceof Character;
      case INT -> value instanceof Integer;
      case LONG -> value instanceof Long;
      case FLOAT -> value instanceof Float;
      case DOUBLE -> value instanceof Double;
      case ARRAY -> value instanceof List<?> list && list.stream()
          .allMatch(v -> v instanceof AnnotationValue element
              && isResolved(((ArrayType) memberType).getComponentType(), element.getValue()));
      case DECLARED -> isResolvedDeclared((DeclaredType) memberType, value);
      default -> true;
    };
  }

  private static boolean isResolvedDeclared(DeclaredType memberType, Object value) {
    TypeElement element = (TypeElement) memberType.asElement();
    if (element.getQualifiedName().contentEquals("java.lang.String")) {
      return value instanceof String;
    }
    if (element.getQualifiedName().contentEquals("java.lang.Class")) {
      // A primitive such as int.class resolves; whether it is a valid events type is checked later.
      return value instanceof TypeMirror mirror && mirror.getKind() != TypeKind.ERROR;
    }
    if (element.getKind() == ElementKind.ENUM) {
      return value instanceof VariableElement;
    }
    if (element.getKind() == ElementKind.ANNOTATION_TYPE) {
      return value instanceof AnnotationMirror;
    }
    return true;
  }

  private static void unresolved(TypeMirror type, Set<String> missing) {
    if (type.getKind() == TypeKind.ERROR) {
      missing.add(type.toString());
    } else if (type instanceof DeclaredType declared) {
      for (TypeMirror argument : declared.getTypeArguments()) {
        unresolved(argument, missing);
      }
    } else if (type.getKind() == TypeKind.ARRAY) {
      unresolved(((ArrayType) type).getComponentType(), missing);
    }
  }

  /**
   * What makes {@code root} impossible to turn into a sealed events root, or empty when annotating and
   * sealing it would do: a record, enum or final class cannot be sealed, and a JDK type cannot be edited.
   * A type compiled here is the user's own, whatever its package ({@code javax.shop} is a legal one), and
   * so is one annotated {@code @DomainEvents}, which no JDK type is: an incremental build that recompiles
   * only the aggregate reads such a root from its class file, and must accept what a full build accepts.
   */
  private Optional<String> cannotBeEventsRoot(TypeElement root) {
    if (JdkTypes.isJdk(root) && !compiledTypes.contains(root) && !Annotations.has(root, Annotations.DOMAIN_EVENTS)) {
      return Optional.of("a JDK type");
    }
    return switch (root.getKind()) {
      case RECORD, ENUM, ANNOTATION_TYPE -> Optional.of(kindName(root.getKind()));
      case CLASS -> root.getModifiers().contains(Modifier.FINAL) ? Optional.of("a final class") : Optional.empty();
      default -> Optional.empty();
    };
  }

  // ---- the aggregate declaration

  private void checkDeclaration(TypeElement type, AnnotationMirror aggregate, String simpleName) {
    Set<Modifier> modifiers = type.getModifiers();
    if (type.getKind() == ElementKind.CLASS) {
      if (modifiers.contains(Modifier.ABSTRACT)) {
        errors.error(type, aggregate, Messages.aggregateAbstract(simpleName));
      } else if (!modifiers.contains(Modifier.FINAL)) {
        errors.error(type, aggregate, Messages.aggregateNotFinal(simpleName));
      }
      if (type.getNestingKind() == NestingKind.MEMBER && !modifiers.contains(Modifier.STATIC)) {
        errors.error(type, aggregate, Messages.aggregateInner(simpleName));
      }
      if (!modifiers.contains(Modifier.ABSTRACT) && !jackson.jacksonCanConstruct(type)) {
        errors.error(type, aggregate, Messages.aggregateNotDeserializable(simpleName));
      }
      jackson.checkJacksonProperties(type, "snapshot");
    }
    privateEnclosing(type).ifPresent(culprit ->
        errors.error(type, aggregate, Messages.aggregatePrivate(simpleName, display(culprit))));
    if (!type.getTypeParameters().isEmpty()) {
      errors.error(type, aggregate, Messages.aggregateGeneric(simpleName));
    }
  }

  /**
   * The annotations of the chosen component model must be on the compile class path: generated code
   * that names a missing one would fail with javac's error in a file the user did not write. A named
   * module sees them only when it requires their module, even with their jar on the module path.
   */
  private void checkComponentModel(TypeElement type, AnnotationMirror aggregate) {
    List<String> missing = componentModel.annotations().stream()
        .map(ClassName::canonicalName)
        .filter(name -> elements.getTypeElement(name) == null)
        .toList();
    if (!missing.isEmpty()) {
      String repository = GeneratedTypes.simpleName(ClassName.get(type), "Repository");
      ModuleElement module = elements.getModuleOf(type);
      errors.error(type, aggregate, module == null || module.isUnnamed()
          ? Messages.componentModelDependencyMissing(componentModel.optionValue(), repository, missing,
              componentModel.dependency(), ComponentModel.optionValues())
          : Messages.componentModelModuleNotRead(componentModel.optionValue(), repository, missing,
              module.getQualifiedName().toString(), componentModel.modules(), componentModel.dependency(),
              ComponentModel.optionValues()));
    }
  }

  // ---- small helpers

  static boolean isType(TypeMirror type, String qualifiedName) {
    return type instanceof DeclaredType declared
        && ((TypeElement) declared.asElement()).getQualifiedName().contentEquals(qualifiedName);
  }

  private PackageElement packageOf(Element element) {
    return elements.getPackageOf(element);
  }

  /**
   * Whether code in other packages can name {@code type}: it and every type enclosing it are public. The
   * repositories of an aggregate that is not are package-private: every method of theirs takes or returns
   * the aggregate, and in an exported package of a named module javac's {@code exports} lint warns about
   * each such use in a public class.
   */
  private static boolean publicOutsidePackage(TypeElement type) {
    for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
      if (!e.getModifiers().contains(Modifier.PUBLIC)) {
        return false;
      }
    }
    return true;
  }

  /** {@code type} itself when it is private, else the innermost private type enclosing it. */
  private static Optional<TypeElement> privateEnclosing(TypeElement type) {
    for (Element e = type; e instanceof TypeElement enclosing; e = e.getEnclosingElement()) {
      if (e.getModifiers().contains(Modifier.PRIVATE)) {
        return Optional.of(enclosing);
      }
    }
    return Optional.empty();
  }

  /** A type's name as the user writes it in its package: {@code AccountEvent.Opened} for a nested type. */
  static String display(TypeElement type) {
    return String.join(".", ClassName.get(type).simpleNames());
  }

  private static String kindName(ElementKind kind) {
    return switch (kind) {
      case INTERFACE -> "an interface";
      case ENUM -> "an enum";
      case ANNOTATION_TYPE -> "an annotation type";
      default -> "a " + kind.name().toLowerCase(Locale.ROOT);
    };
  }
}
