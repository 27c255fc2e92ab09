package dev.esgen.processor;

import static dev.esgen.processor.AggregateAnalyzer.display;
import static dev.esgen.processor.AggregateAnalyzer.isType;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;
import dev.esgen.processor.ColumnModel.ValueForm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Checks the aggregate's properties that become key or index columns: the {@code @AggregateId} and the
 * {@code @Indexed} and {@code @Unique} ones (their types, column names, generated names and clashes), and
 * how the generated code reads each.
 */
final class ColumnAnalyzer {

  private static final String REPOSITORY = "dev.esgen.runtime.repository.EventSourcedRepository";

  private final Elements elements;
  private final Types types;
  private final ErrorReporter errors;
  private Set<String> repositoryMethods;

  ColumnAnalyzer(Elements elements, Types types, ErrorReporter errors) {
    this.elements = elements;
    this.types = types;
    this.errors = errors;
  }

  /** An aggregate's record components, or a class's instance fields, with how to read each. */
  record Property(Element element, String name, TypeMirror type, Optional<PropertyAccess> access) {}

  List<Property> properties(TypeElement type) {
    List<Property> all = new ArrayList<>();
    if (type.getKind() == ElementKind.RECORD) {
      // A record's component annotations are read from, and errors reported on, the component's private
      // field: all esgen's component annotations also target fields, and javac (17) cannot place a
      // diagnostic on a record component element, only on the field declared by the same header.
      Map<String, VariableElement> fields = new HashMap<>();
      for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
        fields.put(field.getSimpleName().toString(), field);
      }
      for (RecordComponentElement component : type.getRecordComponents()) {
        String name = component.getSimpleName().toString();
        Element element = fields.containsKey(name) ? fields.get(name) : component;
        all.add(new Property(element, name, component.asType(), Optional.of(new PropertyAccess(name, false))));
      }
    } else {
      for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
        if (!field.getModifiers().contains(Modifier.STATIC)) {
          all.add(new Property(field, field.getSimpleName().toString(), field.asType(), fieldAccess(type, field)));
        }
      }
    }
    return all;
  }

  private Optional<PropertyAccess> fieldAccess(TypeElement type, VariableElement field) {
    String name = field.getSimpleName().toString();
    if (!field.getModifiers().contains(Modifier.PRIVATE)) {
      return Optional.of(new PropertyAccess(name, true));
    }
    return getters(type, field).stream().filter(method -> checkedException(method).isEmpty()).findFirst()
        .map(method -> new PropertyAccess(method.getSimpleName().toString(), false));
  }

  /**
   * The non-private instance getters of {@code field}, in the order they are preferred: {@code x()},
   * {@code getX()} and, for a boolean or Boolean, {@code isX()}.
   */
  private List<ExecutableElement> getters(TypeElement type, VariableElement field) {
    List<ExecutableElement> getters = new ArrayList<>();
    for (String getter : getterNames(field.getSimpleName().toString(), field.asType())) {
      for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
        if (method.getSimpleName().contentEquals(getter)
            && method.getParameters().isEmpty()
            && !method.getModifiers().contains(Modifier.STATIC)
            && !method.getModifiers().contains(Modifier.PRIVATE)
            && types.isSameType(method.getReturnType(), field.asType())) {
          getters.add(method);
        }
      }
    }
    return getters;
  }

  /**
   * The first checked exception {@code method} declares: the generated code that reads the id and the
   * index columns declares none.
   */
  private Optional<String> checkedException(ExecutableElement method) {
    return DeclaredExceptions.firstChecked(method, elements, types);
  }

  private static List<String> getterNames(String name, TypeMirror type) {
    String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
    List<String> names = new ArrayList<>(List.of(name, "get" + capitalized));
    if (type.getKind() == TypeKind.BOOLEAN
        || type instanceof DeclaredType declared
            && ((TypeElement) declared.asElement()).getQualifiedName().contentEquals("java.lang.Boolean")) {
      names.add("is" + capitalized);
    }
    return names;
  }

  /** Whether {@code type} has an {@code @AggregateId} on a static field, or on a parameter of one of its members. */
  private static boolean misplacedId(TypeElement type) {
    for (Element member : type.getEnclosedElements()) {
      if (member.getKind() == ElementKind.FIELD && member.getModifiers().contains(Modifier.STATIC)
          && Annotations.has(member, Annotations.AGGREGATE_ID)) {
        return true;
      }
      if (member instanceof ExecutableElement executable && executable.getParameters().stream()
          .anyMatch(parameter -> Annotations.has(parameter, Annotations.AGGREGATE_ID))) {
        return true;
      }
    }
    return false;
  }

  /**
   * @throws AbortAggregateException when the only {@code @AggregateId} is where it has no effect (a static
   *     field, a parameter): that one mistake is reported there already ({@code annotation-without-effect}),
   *     not again as a missing id
   */
  Optional<IdModel> checkId(TypeElement type, AnnotationMirror aggregate, String simpleName, List<Property> properties)
      throws AbortAggregateException {
    List<Property> ids = new ArrayList<>();
    for (Property property : properties) {
      if (Annotations.has(property.element(), Annotations.AGGREGATE_ID)) {
        ids.add(property);
      }
    }
    if (ids.isEmpty()) {
      if (misplacedId(type)) {
        throw new AbortAggregateException();
      }
      errors.error(type, aggregate, Messages.noId(simpleName));
      return Optional.empty();
    }
    for (Property extra : ids.subList(1, ids.size())) {
      errors.error(
          extra.element(),
          Annotations.find(extra.element(), Annotations.AGGREGATE_ID).orElseThrow(),
          Messages.duplicateId(extra.name(), ids.get(0).name()));
    }
    Property id = ids.get(0);
    AnnotationMirror idAnnotation = Annotations.find(id.element(), Annotations.AGGREGATE_ID).orElseThrow();
    if (!checkNotRaw(id, idAnnotation, "AggregateId") || !checkTypeAccessible(type, id, idAnnotation)) {
      return Optional.empty();
    }
    Optional<PropertyAccess> access = requireAccess(simpleName, id);
    if (!checkInSnapshot(simpleName, id, idAnnotation, "AggregateId")) {
      return Optional.empty();
    }
    IdModel.ValueKind direct = idValueKind(id.type());
    if (direct != null) {
      return access.map(a -> new IdModel(id.name(), a, (ClassName) TypeName.get(id.type()), direct, Optional.empty()));
    }
    if (id.type() instanceof DeclaredType declared
        && declared.asElement().getKind() == ElementKind.RECORD
        && declared.getTypeArguments().isEmpty()) {
      List<? extends RecordComponentElement> components =
          ((TypeElement) declared.asElement()).getRecordComponents();
      if (components.size() == 1 && idValueKind(components.get(0).asType()) != null) {
        IdModel.ValueKind wrapped = idValueKind(components.get(0).asType());
        String accessor = components.get(0).getAccessor().getSimpleName().toString();
        return access.map(
            a -> new IdModel(id.name(), a, ClassName.get((TypeElement) declared.asElement()), wrapped, Optional.of(accessor)));
      }
    }
    boolean genericRecord = id.type() instanceof DeclaredType declared
        && declared.asElement().getKind() == ElementKind.RECORD
        && !declared.getTypeArguments().isEmpty();
    errors.error(id.element(), idAnnotation, Messages.idType(id.name(), id.type().toString(), genericRecord));
    return Optional.empty();
  }

  /**
   * Reports an id or column of a generic type written without type arguments: the generated code names
   * the type as declared, and a raw type there is a {@code rawtypes} warning in a file the user did not
   * write. A generic type with arguments is no supported id or column type either, so the advice is a
   * type without parameters.
   */
  private boolean checkNotRaw(Property property, AnnotationMirror annotation, String annotationName) {
    if (property.type() instanceof DeclaredType declared && declared.getTypeArguments().isEmpty()) {
      TypeElement element = (TypeElement) declared.asElement();
      if (!element.getTypeParameters().isEmpty()) {
        List<String> parameters = element.getTypeParameters().stream()
            .map(parameter -> parameter.getSimpleName().toString())
            .toList();
        errors.error(property.element(), annotation, Messages.rawType(annotationName, property.name(), display(element),
            parameters, annotationName.equals("AggregateId") ? "id" : "column"));
        return false;
      }
    }
    return true;
  }

  /**
   * Reports an id or column whose declared type the generated code, in the aggregate's package, cannot
   * name: a private nested type, or a non-public type of another package.
   */
  private boolean checkTypeAccessible(TypeElement aggregate, Property property, AnnotationMirror annotation) {
    if (!(property.type() instanceof DeclaredType declared)) {
      return true;
    }
    TypeElement valueType = (TypeElement) declared.asElement();
    boolean samePackage = packageOf(valueType).equals(packageOf(aggregate));
    for (Element e = valueType; e instanceof TypeElement; e = e.getEnclosingElement()) {
      Set<Modifier> modifiers = e.getModifiers();
      if (modifiers.contains(Modifier.PRIVATE) || (!samePackage && !modifiers.contains(Modifier.PUBLIC))) {
        errors.error(property.element(), annotation, Messages.typeNotAccessible(
            property.name(), display(valueType), display((TypeElement) e), packageOf(aggregate).getQualifiedName().toString()));
        return false;
      }
    }
    return true;
  }

  private IdModel.ValueKind idValueKind(TypeMirror type) {
    if (isType(type, "java.lang.String")) {
      return IdModel.ValueKind.STRING;
    }
    if (isType(type, "java.util.UUID")) {
      return IdModel.ValueKind.UUID;
    }
    return null;
  }

  private Optional<PropertyAccess> requireAccess(String aggregate, Property property) {
    // A getter that exists but throws checked exceptions is named, rather than asked for.
    Optional<ExecutableElement> throwing =
        property.access().isPresent() || !(property.element() instanceof VariableElement field)
            ? Optional.empty()
            : getters((TypeElement) field.getEnclosingElement(), field).stream().findFirst();
    if (throwing.isPresent()) {
      errors.error(throwing.get(), Messages.accessorThrows(aggregate, property.name(),
          throwing.get().getSimpleName().toString(), checkedException(throwing.get()).orElseThrow()));
    } else if (property.access().isEmpty()) {
      String capitalized = Character.toUpperCase(property.name().charAt(0)) + property.name().substring(1);
      errors.error(
          property.element(),
          Messages.noAccessor(
              aggregate,
              property.name(),
              "\"" + property.type() + " " + property.name() + "()\" or \"" + property.type() + " get" + capitalized + "()\""));
    }
    return property.access();
  }

  /**
   * Whether the snapshot keeps {@code property}: a transient or {@code @JsonIgnore} field is not written,
   * so a state read from a snapshot would lack the id (and fail) or the column's value (and lose its
   * index entry or unique claim on the next append).
   */
  private boolean checkInSnapshot(String aggregate, Property property, AnnotationMirror annotation, String annotationName) {
    Element element = property.element();
    // Jackson writes a transient field it is told to by name, and reads @JsonIgnore(false) as no @JsonIgnore.
    boolean transientLeftOut = element.getModifiers().contains(Modifier.TRANSIENT)
        && !Annotations.has(element, Annotations.JSON_PROPERTY);
    Optional<AnnotationMirror> ignore = Annotations.find(element, Annotations.JSON_IGNORE);
    AnnotationValue ignoreValue = ignore.map(mirror -> Annotations.explicitValue(mirror, "value")).orElse(null);
    boolean ignored = ignore.isPresent() && (ignoreValue == null || Boolean.TRUE.equals(ignoreValue.getValue()));
    String left = transientLeftOut ? "transient" : ignored ? "@JsonIgnore" : null;
    if (left == null) {
      return true;
    }
    errors.error(element, annotation, Messages.notInSnapshot(aggregate, annotationName, property.name(), left));
    return false;
  }

  private static final Pattern COLUMN_NAME = Pattern.compile("[A-Za-z0-9_.-]+");

  /** Reference types whose values {@code IndexValues} encodes, besides enums. */
  private static final Set<String> COLUMN_TYPES = Set.of(
      "java.lang.String", "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long",
      "java.lang.Float", "java.lang.Double", "java.lang.Boolean", "java.math.BigInteger", "java.math.BigDecimal",
      "java.util.UUID", "java.time.Instant", "java.time.LocalDate");

  List<ColumnModel> checkColumns(TypeElement type, String simpleName, List<Property> properties) {
    List<ColumnModel> columns = new ArrayList<>();
    Map<String, String> propertyByColumn = new HashMap<>();
    Map<String, String> propertyByConstant = new HashMap<>();
    Map<String, String> propertyByMethodSuffix = new HashMap<>();
    for (Property property : properties) {
      Optional<AnnotationMirror> indexed = Annotations.find(property.element(), Annotations.INDEXED);
      Optional<AnnotationMirror> unique = Annotations.find(property.element(), Annotations.UNIQUE);
      if (indexed.isEmpty() && unique.isEmpty()) {
        continue;
      }
      AnnotationMirror annotation = unique.orElseGet(indexed::orElseThrow);
      String annotationName = unique.isPresent() ? "Unique" : "Indexed";
      if (Annotations.has(property.element(), Annotations.AGGREGATE_ID)) {
        errors.error(property.element(), annotation, Messages.indexedId(annotationName, property.name()));
        continue;
      }
      if (indexed.isPresent() && unique.isPresent()) {
        errors.error(property.element(), indexed.get(), Messages.indexedAndUnique(property.name()));
        continue;
      }
      AnnotationValue columnValue = Annotations.explicitValue(annotation, "column");
      String column = property.name();
      if (columnValue != null) {
        column = (String) columnValue.getValue();
        if (!COLUMN_NAME.matcher(column).matches()) {
          errors.error(property.element(), annotation, columnValue, Messages.invalidColumnName(column));
          continue;
        }
      }
      String other = propertyByColumn.putIfAbsent(column, property.name());
      if (other != null) {
        errors.error(property.element(), annotation, Messages.duplicateColumn(property.name(), column, other));
        continue;
      }
      Optional<String> inherited = lookupMethods(property.name(), unique.isPresent()).stream()
          .filter(repositoryMethods()::contains)
          .findFirst();
      if (inherited.isPresent()) {
        errors.error(property.element(), annotation,
            Messages.lookupClashesWithRepository(annotationName, property.name(), inherited.get(),
                GeneratedTypes.simpleName(ClassName.get(type), "Repository")));
        continue;
      }
      String constant = ColumnModel.constantFor(property.name());
      String sameConstant = propertyByConstant.putIfAbsent(constant, property.name());
      if (sameConstant != null) {
        errors.error(property.element(), annotation,
            Messages.columnConstantClash(property.name(), sameConstant, constant,
                GeneratedTypes.nestedName(ClassName.get(type), "IndexColumns")));
        continue;
      }
      // Method names capitalise only the first letter: uRL and URL both give findByURL and encodeURL.
      String sameMethods = propertyByMethodSuffix.putIfAbsent(methodSuffix(property.name()), property.name());
      if (sameMethods != null) {
        errors.error(property.element(), annotation,
            Messages.columnMethodClash(property.name(), sameMethods, lookupMethods(property.name(), false).get(0),
                GeneratedTypes.simpleName(ClassName.get(type), "Repository"), column));
        continue;
      }
      if (!checkNotRaw(property, annotation, annotationName)) {
        continue;
      }
      Optional<ValueForm> form = valueForm(property.type());
      if (form.isEmpty()) {
        errors.error(property.element(), annotation,
            Messages.columnType(annotationName, property.name(), property.type().toString()));
        continue;
      }
      if (!checkTypeAccessible(type, property, annotation)) {
        continue;
      }
      Optional<PropertyAccess> access = requireAccess(simpleName, property);
      if (access.isEmpty() || !checkInSnapshot(simpleName, property, annotation, annotationName)) {
        continue;
      }
      Optional<ColumnModel.Wrapped> wrapped = Optional.empty();
      if (form.get() == ValueForm.WRAPPER) {
        RecordComponentElement component =
            ((TypeElement) types.asElement(property.type())).getRecordComponents().get(0);
        wrapped = Optional.of(new ColumnModel.Wrapped(
            component.getAccessor().getSimpleName().toString(), component.asType().getKind().isPrimitive()));
      }
      String normalization = "EXACT";
      if (unique.isPresent()) {
        normalization = Annotations.value(elements, unique.get(), "normalize").getValue().toString();
      }
      columns.add(new ColumnModel(column, property.name(), unique.isPresent(), normalization, access.get(),
          TypeName.get(property.type()), form.get(), wrapped));
    }
    return columns;
  }

  /** A DynamoDB table's global secondary indexes (its default quota): one per {@code @Indexed} column. */
  static final int MAX_INDEXED = 20;

  /**
   * Reports the first {@code @Indexed} column past what the layout's table can index: 20 on the journal,
   * 19 on the tip, whose listing index takes one of the table's 20 (the runtime's {@code IndexKeys}).
   */
  void checkIndexedCount(String aggregate, List<Property> properties, List<ColumnModel> columns, boolean tip) {
    int max = tip ? MAX_INDEXED - 1 : MAX_INDEXED;
    List<ColumnModel> indexed = columns.stream().filter(column -> !column.unique()).toList();
    if (indexed.size() <= max) {
      return;
    }
    String first = indexed.get(max).property();
    Property property = properties.stream().filter(p -> p.name().equals(first)).findFirst().orElseThrow();
    errors.error(property.element(), Annotations.find(property.element(), Annotations.INDEXED).orElseThrow(),
        Messages.tooManyIndexed(aggregate, property.name(), indexed.size(), max, tip));
  }

  /** The lookups the generated repository declares for a column read from {@code property}. */
  private static List<String> lookupMethods(String property, boolean unique) {
    String suffix = methodSuffix(property);
    return unique
        ? List.of("findBy" + suffix, "loadBy" + suffix)
        : List.of("findBy" + suffix, "loadBy" + suffix, "listBy" + suffix);
  }

  /** What the names of a column's lookups and encoder end with: {@code Email} for {@code email}. */
  private static String methodSuffix(String property) {
    return Character.toUpperCase(property.charAt(0)) + property.substring(1);
  }

  /**
   * The names of the methods every generated repository inherits ({@code findById}, {@code findAll},
   * {@code loadByIndex}, ...), which a generated lookup must not reuse: they are final, and an overload
   * taking the same id type would be a duplicate.
   */
  private Set<String> repositoryMethods() {
    if (repositoryMethods == null) {
      repositoryMethods = new HashSet<>();
      TypeElement repository = elements.getTypeElement(REPOSITORY);
      if (repository != null) {
        for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(repository))) {
          repositoryMethods.add(method.getSimpleName().toString());
        }
      }
    }
    return repositoryMethods;
  }

  /** How a supported column value is encoded; empty for an unsupported type. */
  private Optional<ValueForm> valueForm(TypeMirror type) {
    if (isSupportedValue(type)) {
      return Optional.of(type.getKind().isPrimitive() ? ValueForm.PRIMITIVE : ValueForm.OBJECT);
    }
    if (type instanceof DeclaredType declared
        && declared.asElement().getKind() == ElementKind.RECORD
        && declared.getTypeArguments().isEmpty()) {
      List<? extends RecordComponentElement> components = ((TypeElement) declared.asElement()).getRecordComponents();
      if (components.size() == 1 && isSupportedValue(components.get(0).asType())) {
        return Optional.of(ValueForm.WRAPPER);
      }
    }
    return Optional.empty();
  }

  private boolean isSupportedValue(TypeMirror type) {
    if (type.getKind().isPrimitive()) {
      return type.getKind() != TypeKind.CHAR;
    }
    if (type instanceof DeclaredType declared) {
      Element element = declared.asElement();
      return element.getKind() == ElementKind.ENUM
          || (element instanceof TypeElement typeElement
              && COLUMN_TYPES.contains(typeElement.getQualifiedName().toString()));
    }
    return false;
  }

  private PackageElement packageOf(Element element) {
    return elements.getPackageOf(element);
  }
}
