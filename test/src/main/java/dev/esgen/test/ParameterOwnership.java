package dev.esgen.test;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Tells which test parameters another JUnit extension resolves, so that esgen's extensions leave them
 * alone: JUnit fails a parameter two resolvers claim ("competing ParameterResolvers"), and a test that
 * asks Mockito for a mock {@code EventStore} or Spring for its {@code DynamoDbClient} means that one.
 *
 * <p>A parameter belongs to another extension when it carries Mockito's {@code @Mock}, or Spring's
 * {@code @Autowired}, {@code @Qualifier} or {@code @Value} (directly or through annotations of its own, as
 * Spring's custom qualifiers are), or when it is a parameter of a constructor Spring autowires: one
 * annotated {@code @Autowired} or {@code @Inject}, or any constructor of a test class under
 * {@code @TestConstructor(autowireMode = ALL)} (on it or, for a {@code @Nested} class, an enclosing one) or with the configuration
 * parameter {@code spring.test.constructor.autowire.mode=all}. The annotations are recognised by name,
 * so neither library need be on the class path.
 *
 * <pre>{@code
 * public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
 *   return parameter.getParameter().getType() == DynamoDbClient.class
 *       && !ParameterOwnership.belongsToAnotherExtension(parameter.getParameter(), context);
 * }
 * }</pre>
 */
public final class ParameterOwnership {

  private static final String AUTOWIRED = "org.springframework.beans.factory.annotation.Autowired";
  private static final String TEST_CONSTRUCTOR = "org.springframework.test.context.TestConstructor";
  private static final String AUTOWIRE_MODE = "spring.test.constructor.autowire.mode";

  /** The annotations by which Mockito's and Spring's JUnit extensions take a parameter. */
  private static final Set<String> CLAIMING_PARAMETERS = Set.of(
      "org.mockito.Mock",
      AUTOWIRED,
      "org.springframework.beans.factory.annotation.Qualifier",
      "org.springframework.beans.factory.annotation.Value");

  /** The annotations by which Spring's extension takes every parameter of a constructor. */
  private static final Set<String> CLAIMING_CONSTRUCTORS =
      Set.of(AUTOWIRED, "jakarta.inject.Inject", "javax.inject.Inject");

  private ParameterOwnership() {}

  /**
   * Whether another extension resolves {@code parameter}, by the annotations and the setting this class
   * names; {@code context} gives the configuration parameters.
   */
  public static boolean belongsToAnotherExtension(Parameter parameter, ExtensionContext context) {
    if (carries(parameter, CLAIMING_PARAMETERS)) {
      return true;
    }
    return parameter.getDeclaringExecutable() instanceof Constructor<?> constructor
        && (carries(constructor, CLAIMING_CONSTRUCTORS) || autowiresEveryConstructor(constructor, context));
  }

  private static boolean autowiresEveryConstructor(Constructor<?> constructor, ExtensionContext context) {
    // A @Nested (inner) class is under its enclosing class's setting, as Spring's extension reads it.
    for (Class<?> type = constructor.getDeclaringClass(); type != null;
        type = Modifier.isStatic(type.getModifiers()) ? null : type.getEnclosingClass()) {
      for (Annotation annotation : type.getAnnotations()) {
        if (annotation.annotationType().getName().equals(TEST_CONSTRUCTOR)) {
          return "ALL".equals(autowireMode(annotation));
        }
      }
    }
    return context.getConfigurationParameter(AUTOWIRE_MODE).map(mode -> mode.trim().equalsIgnoreCase("all"))
        .orElse(false);
  }

  private static String autowireMode(Annotation testConstructor) {
    try {
      return String.valueOf(testConstructor.annotationType().getMethod("autowireMode").invoke(testConstructor));
    } catch (ReflectiveOperationException | RuntimeException unreadable) {
      return "";
    }
  }

  /** Whether {@code element} carries one of {@code names}, directly or through its annotations' annotations. */
  private static boolean carries(AnnotatedElement element, Set<String> names) {
    return carries(element, names, new HashSet<>());
  }

  private static boolean carries(AnnotatedElement element, Set<String> names, Set<Class<?>> seen) {
    for (Annotation annotation : element.getAnnotations()) {
      Class<? extends Annotation> type = annotation.annotationType();
      if (names.contains(type.getName())) {
        return true;
      }
      if (!type.getName().startsWith("java.lang.annotation.") && seen.add(type) && carries(type, names, seen)) {
        return true;
      }
    }
    return false;
  }
}
