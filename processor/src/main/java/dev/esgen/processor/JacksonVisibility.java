package dev.esgen.processor;

import static dev.esgen.processor.AggregateAnalyzer.display;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * Checks that esgen's Jackson mapper can write and read back a class: a class aggregate (its snapshot)
 * or a class event. Records need none of this, Jackson builds them through their canonical constructor.
 */
final class JacksonVisibility {

  private final ErrorReporter errors;

  JacksonVisibility(ErrorReporter errors) {
    this.errors = errors;
  }

  /**
   * Whether Jackson can build {@code type}: through a non-private no-argument constructor or a
   * {@code @JsonCreator}. A creator whose parameters Jackson cannot name is reported on the creator.
   */
  boolean jacksonCanConstruct(TypeElement type) {
    boolean constructible = false;
    List<ExecutableElement> creators = new ArrayList<>();
    for (ExecutableElement constructor : ElementFilter.constructorsIn(type.getEnclosedElements())) {
      if (isJsonCreator(constructor)) {
        creators.add(constructor);
      } else if (constructor.getParameters().isEmpty() && !constructor.getModifiers().contains(Modifier.PRIVATE)) {
        constructible = true;
      }
    }
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (method.getModifiers().contains(Modifier.STATIC) && isJsonCreator(method)) {
        creators.add(method);
      }
    }
    for (ExecutableElement creator : creators) {
      constructible = true;
      checkCreatorParameters(type, creator);
    }
    return constructible;
  }

  /**
   * Whether Jackson can build {@code type} from a JSON object, as {@link #jacksonCanConstruct} decides
   * but reporting nothing, and also through a constructor whose parameters all carry
   * {@code @JsonProperty}, which Jackson takes for a creator without {@code @JsonCreator}. For the classes
   * an event or aggregate holds, where esgen only refuses what certainly fails.
   */
  boolean hasCreator(TypeElement type) {
    for (ExecutableElement constructor : ElementFilter.constructorsIn(type.getEnclosedElements())) {
      List<? extends VariableElement> parameters = constructor.getParameters();
      if (parameters.isEmpty()
          || isJsonCreator(constructor)
          || parameters.stream().allMatch(p -> Annotations.has(p, Annotations.JSON_PROPERTY))) {
        return true;
      }
    }
    return ElementFilter.methodsIn(type.getEnclosedElements()).stream()
        .anyMatch(method -> method.getModifiers().contains(Modifier.STATIC) && isJsonCreator(method));
  }

  /**
   * Whether Jackson finds a property to write in {@code type}: a public field, a getter or a field or
   * method annotated {@code @JsonProperty}, declared in it or in a superclass. Reports nothing.
   */
  boolean hasVisibleProperty(TypeElement type) {
    for (TypeElement t = type; t != null; t = superclass(t)) {
      for (ExecutableElement method : ElementFilter.methodsIn(t.getEnclosedElements())) {
        if (jacksonGetterName(method).isPresent()) {
          return true;
        }
      }
      for (VariableElement field : ElementFilter.fieldsIn(t.getEnclosedElements())) {
        Set<Modifier> modifiers = field.getModifiers();
        if (!modifiers.contains(Modifier.STATIC)
            && !modifiers.contains(Modifier.TRANSIENT)
            && !Annotations.has(field, Annotations.JSON_IGNORE)
            && (modifiers.contains(Modifier.PUBLIC) || Annotations.has(field, Annotations.JSON_PROPERTY))) {
          return true;
        }
      }
    }
    return false;
  }

  private static TypeElement superclass(TypeElement type) {
    if (type.getSuperclass() instanceof DeclaredType declared
        && !((TypeElement) declared.asElement()).getQualifiedName().contentEquals("java.lang.Object")) {
      return (TypeElement) declared.asElement();
    }
    return null;
  }

  private boolean isJsonCreator(ExecutableElement method) {
    return Annotations.find(method, Annotations.JSON_CREATOR).filter(c -> !creatorMode(c).equals("DISABLED")).isPresent();
  }

  private String creatorMode(AnnotationMirror creator) {
    AnnotationValue mode = Annotations.explicitValue(creator, "mode");
    return mode == null ? "DEFAULT" : mode.getValue().toString();
  }

  /**
   * esgen's mapper does not know parameter names (they are not kept in class files by default, and no
   * module reads them), so a properties creator must name each parameter with {@code @JsonProperty}. A
   * single unnamed parameter makes a delegating creator, which only reads back what a {@code @JsonValue}
   * wrote.
   */
  private void checkCreatorParameters(TypeElement type, ExecutableElement creator) {
    List<? extends VariableElement> parameters = creator.getParameters();
    AnnotationMirror annotation = Annotations.find(creator, Annotations.JSON_CREATOR).orElseThrow();
    if (parameters.size() == 1
        && !Annotations.has(parameters.get(0), Annotations.JSON_PROPERTY)
        && (creatorMode(annotation).equals("DELEGATING") || hasJsonValue(type))) {
      return;
    }
    List<String> unnamed = new ArrayList<>();
    for (VariableElement parameter : parameters) {
      if (!Annotations.has(parameter, Annotations.JSON_PROPERTY)) {
        unnamed.add(parameter.getSimpleName().toString());
      }
    }
    if (!unnamed.isEmpty()) {
      errors.error(creator, annotation, Messages.creatorParameterNames(display(type), unnamed));
    }
  }

  private static boolean hasJsonValue(TypeElement type) {
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      if (Annotations.has(method, Annotations.JSON_VALUE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reports every instance field of class {@code type} that Jackson, with its default visibility, would
   * neither write nor read back, so that it would silently vanish from every stored {@code what}.
   *
   * @return whether {@code type} has a property Jackson sees or a field reported here: Jackson refuses
   *     to write a class without any property
   */
  boolean checkJacksonProperties(TypeElement type, String what) {
    // Jackson writes the fields and getters a class inherits as its own (a sealed level's, a base class's),
    // so they are properties too. Only the class's own fields are reported as invisible: a superclass may be
    // a library's, or use Jackson's class-level settings, which these checks do not read.
    List<TypeElement> levels = withSuperclasses(type);
    boolean anyProperty = false;
    for (TypeElement level : levels) {
      for (ExecutableElement method : ElementFilter.methodsIn(level.getEnclosedElements())) {
        if (jacksonGetterName(method).isPresent()) {
          anyProperty = true;
        }
      }
    }
    for (TypeElement level : levels) {
      for (VariableElement field : ElementFilter.fieldsIn(level.getEnclosedElements())) {
        Set<Modifier> modifiers = field.getModifiers();
        if (modifiers.contains(Modifier.STATIC)
            || modifiers.contains(Modifier.TRANSIENT)
            || Annotations.has(field, Annotations.JSON_IGNORE)) {
          continue;
        }
        boolean read = jacksonReads(levels, field);
        if (!level.equals(type)) {
          anyProperty |= read;
          continue;
        }
        // A field Jackson cannot see is reported here, which says more than "no property" would.
        anyProperty = true;
        if (!read) {
          String name = field.getSimpleName().toString();
          errors.error(field, Messages.fieldInvisibleToJackson(
              display(type), name, field.asType().toString(), getterName(name, field.asType()), what));
        }
      }
    }
    return anyProperty;
  }

  /**
   * {@code type} and the classes it extends, nearest first, up to but without the JDK's ({@code Object},
   * {@code Record}, ...).
   */
  private static List<TypeElement> withSuperclasses(TypeElement type) {
    List<TypeElement> levels = new ArrayList<>(List.of(type));
    for (Optional<TypeElement> level = JdkTypes.domainSuperclass(type); level.isPresent();
        level = JdkTypes.domainSuperclass(level.get())) {
      levels.add(level.get());
    }
    return levels;
  }

  private boolean jacksonReads(List<TypeElement> levels, VariableElement field) {
    String name = field.getSimpleName().toString();
    if (field.getModifiers().contains(Modifier.PUBLIC)) {
      return true;
    }
    Optional<AnnotationMirror> property = Annotations.find(field, Annotations.JSON_PROPERTY);
    if (property.isPresent()) {
      return true;
    }
    for (TypeElement level : levels) {
      for (ExecutableElement method : ElementFilter.methodsIn(level.getEnclosedElements())) {
        if (jacksonGetterName(method).filter(name::equals).isPresent()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The property a method gives Jackson to read with the default visibility: a public
   * {@code getX()}, a public {@code boolean} or {@code Boolean isX()}, or any no-argument method annotated
   * {@code @JsonProperty} (named by it, or after the method). Jackson 2 does not detect record-style
   * {@code x()} accessors on classes.
   */
  private static Optional<String> jacksonGetterName(ExecutableElement method) {
    if (method.getModifiers().contains(Modifier.STATIC)
        || !method.getParameters().isEmpty()
        || method.getReturnType().getKind() == TypeKind.VOID
        || Annotations.has(method, Annotations.JSON_IGNORE)) {
      return Optional.empty();
    }
    String name = method.getSimpleName().toString();
    Optional<AnnotationMirror> property = Annotations.find(method, Annotations.JSON_PROPERTY);
    if (property.isPresent()) {
      AnnotationValue value = Annotations.explicitValue(property.get(), "value");
      if (value != null && !value.getValue().toString().isEmpty()) {
        return Optional.of(value.getValue().toString());
      }
      return Optional.of(propertyName(name).orElse(name));
    }
    if (!method.getModifiers().contains(Modifier.PUBLIC)) {
      return Optional.empty();
    }
    if (name.startsWith("is") && !isBoolean(method.getReturnType())) {
      return Optional.empty();
    }
    return propertyName(name);
  }

  /** Whether {@code type} is {@code boolean} or {@code Boolean}, the types Jackson 2 reads an {@code isX()} getter of. */
  private static boolean isBoolean(TypeMirror type) {
    return type.getKind() == TypeKind.BOOLEAN
        || type instanceof DeclaredType declared
            && ((TypeElement) declared.asElement()).getQualifiedName().contentEquals("java.lang.Boolean");
  }

  /**
   * The property Jackson (2, with its default, non-"standard" bean naming) derives from a getter's name:
   * the rest after {@code get} or {@code is} with its whole leading run of capitals lower-cased, as
   * Jackson's {@code legacyManglePropertyName} does: {@code amount} for {@code getAmount}, {@code url} for
   * {@code getURL}, {@code xcoord} for {@code getXCoord}, {@code aB} for {@code getaB}. Empty for other names.
   */
  static Optional<String> propertyName(String method) {
    for (String prefix : List.of("get", "is")) {
      if (method.length() > prefix.length() && method.startsWith(prefix)) {
        String rest = method.substring(prefix.length());
        StringBuilder property = new StringBuilder(rest.length());
        int i = 0;
        for (; i < rest.length() && Character.toLowerCase(rest.charAt(i)) != rest.charAt(i); i++) {
          property.append(Character.toLowerCase(rest.charAt(i)));
        }
        return Optional.of(property.append(rest, i, rest.length()).toString());
      }
    }
    return Optional.empty();
  }

  /**
   * A getter Jackson links to {@code field}: {@code getAmount} for {@code amount}, {@code getxCoord} for
   * {@code xCoord} (Jackson reads {@code getXCoord} as {@code xcoord}); null when none can, as for
   * {@code URL}, whose getters Jackson all reads as lower-case names.
   */
  private static String getterName(String field, TypeMirror type) {
    String prefix = type.getKind() == TypeKind.BOOLEAN ? "is" : "get";
    for (String candidate : List.of(prefix + Character.toUpperCase(field.charAt(0)) + field.substring(1), prefix + field)) {
      if (propertyName(candidate).filter(field::equals).isPresent()) {
        return candidate;
      }
    }
    return null;
  }
}
